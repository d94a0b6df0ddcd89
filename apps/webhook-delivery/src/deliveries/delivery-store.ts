import { In, IsNull, type DataSource, type EntityManager } from 'typeorm';
import { AccountSecretEntity } from '../database/account-secret.entity';
import { WebhookAttemptEntity } from '../database/webhook-attempt.entity';
import { WebhookDeliveryEntity } from '../database/webhook-delivery.entity';
import { WebhookEndpointEntity } from '../database/webhook-endpoint.entity';
import type { DeliveryOutcome } from '../domain/delivery-state-machine';

export interface ClaimedDelivery {
  delivery: WebhookDeliveryEntity;
  endpoint: WebhookEndpointEntity;
  // The claim's end: what follows the attempt is written only while the claim still holds it.
  lease: Date;
}

export interface HeldDelivery {
  deliveryId: string;
  endpointId: string;
  lease: Date;
}

// Attempts in flight per endpoint, across instances: a slow receiver cannot take every slot.
export const IN_FLIGHT_PER_ENDPOINT = 4;
const ERROR_MAX_CHARS = 500;
const RESPONSE_MAX_CHARS = 1024;

export interface NewDelivery {
  delivery_id: string;
  endpoint_id: string;
  source_id: string;
  event_type: WebhookDeliveryEntity['event_type'];
  job_id: string;
  body: string;
}

// The deliveries table as the consumer and the dispatcher use it. Claims are leases (claimed_until):
// several instances share due rows (FOR UPDATE SKIP LOCKED), and a row whose instance died mid-attempt
// is due again once its lease ends, so a kill -9 loses no delivery.
export class DeliveryStore {
  constructor(private readonly dataSource: DataSource) {}

  // One row per endpoint and event; a redelivered event inserts nothing (UQ_delivery_source_endpoint).
  async add(deliveries: NewDelivery[], now: Date, manager: EntityManager = this.dataSource.manager): Promise<void> {
    if (deliveries.length === 0) return;
    await manager
      .createQueryBuilder()
      .insert()
      .into(WebhookDeliveryEntity)
      .values(deliveries.map((d) => ({ ...d, state: 'pending' as const, failed_attempts: 0, next_attempt_at: now, claimed_until: null, created_at: now })))
      .orIgnore()
      .execute();
  }

  // Up to `limit` due deliveries with their endpoints, leased for leaseMs, at most IN_FLIGHT_PER_ENDPOINT
  // per endpoint counting the ones already in flight.
  async claimDue(now: Date, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    const lease = new Date(now.getTime() + leaseMs);
    return this.dataSource.transaction(async (manager) => {
      // The row's own conditions stand in the outer query too: a row another claimer locked and
      // committed after this statement began is read again once locked, and only the outer query's
      // conditions are checked on that new version, not the subquery's (PostgreSQL, READ COMMITTED).
      const rows: { delivery_id: string }[] = await manager.query(
        `SELECT delivery_id FROM webhooks.delivery
          WHERE next_attempt_at <= $1 AND (claimed_until IS NULL OR claimed_until < $1)
            AND delivery_id IN (
            SELECT delivery_id FROM (
              SELECT delivery_id, endpoint_id, row_number() OVER (PARTITION BY endpoint_id ORDER BY next_attempt_at) AS place
                FROM webhooks.delivery
               WHERE next_attempt_at <= $1 AND (claimed_until IS NULL OR claimed_until < $1)
            ) due
            WHERE due.place + (SELECT count(*) FROM webhooks.delivery busy WHERE busy.endpoint_id = due.endpoint_id AND busy.claimed_until >= $1) <= $3
          )
          ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [now, limit, IN_FLIGHT_PER_ENDPOINT],
      );
      if (rows.length === 0) return [];
      const ids = rows.map((row) => row.delivery_id);
      await manager.query(`UPDATE webhooks.delivery SET claimed_until = $1 WHERE delivery_id = ANY($2)`, [lease, ids]);
      const deliveries = await manager.getRepository(WebhookDeliveryEntity).createQueryBuilder('d').where('d.delivery_id IN (:...ids)', { ids }).getMany();
      const endpointIds = [...new Set(deliveries.map((d) => d.endpoint_id))];
      const endpoints = await manager.getRepository(WebhookEndpointEntity).createQueryBuilder('e').where('e.endpoint_id IN (:...endpointIds)', { endpointIds }).getMany();
      await this.signWithAccountSecrets(manager, endpoints);
      const byId = new Map(endpoints.map((e) => [e.endpoint_id, e]));
      return deliveries.flatMap((delivery) => {
        const endpoint = byId.get(delivery.endpoint_id);
        return endpoint ? [{ delivery, endpoint, lease }] : [];
      });
    });
  }

  // An endpoint of one job signs with its account's default secret as it is now (rotations included).
  private async signWithAccountSecrets(manager: EntityManager, endpoints: WebhookEndpointEntity[]): Promise<void> {
    const accountIds = [...new Set(endpoints.filter((e) => e.job_id !== null).map((e) => e.account_id))];
    if (accountIds.length === 0) return;
    const secrets = new Map((await manager.findBy(AccountSecretEntity, { account_id: In(accountIds) })).map((row) => [row.account_id, row]));
    for (const endpoint of endpoints) {
      const current = endpoint.job_id !== null ? secrets.get(endpoint.account_id) : undefined;
      if (current) Object.assign(endpoint, { secret: current.secret, previous_secret: current.previous_secret, previous_secret_expires_at: current.previous_secret_expires_at });
    }
  }

  // An endpoint disabled or deleted since the delivery was written: nothing is sent.
  async giveUp(deliveryId: string, lease: Date): Promise<void> {
    await this.dataSource.manager.update(
      WebhookDeliveryEntity,
      { delivery_id: deliveryId, claimed_until: lease },
      { state: 'given_up', next_attempt_at: null, claimed_until: null },
    );
  }

  // The attempt and its outcome together; a 410 disables the endpoint in the same transaction. The
  // outcome is written only under the claim the attempt was made with: an instance whose claim ran out
  // (and was taken by another) records its attempt but decides nothing. What a receiver answered is
  // kept as text PostgreSQL accepts (no NUL), cut to the columns' sizes.
  async record(held: HeldDelivery, attempt: Omit<WebhookAttemptEntity, 'attempt_seq' | 'delivery_id'>, outcome: DeliveryOutcome, now: Date): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.insert(WebhookAttemptEntity, {
        ...attempt,
        error: attempt.error === null ? null : storable(attempt.error, ERROR_MAX_CHARS),
        response_body: storable(attempt.response_body, RESPONSE_MAX_CHARS),
        delivery_id: held.deliveryId,
      });
      const updated = await manager.update(WebhookDeliveryEntity, { delivery_id: held.deliveryId, claimed_until: held.lease }, {
        state: outcome.state,
        failed_attempts: outcome.failed_attempts,
        next_attempt_at: outcome.next_attempt_at,
        claimed_until: null,
      });
      if (outcome.disableEndpoint && updated.affected) {
        await manager.update(WebhookEndpointEntity, { endpoint_id: held.endpointId, disabled_at: IsNull() }, { disabled_at: now, disabled_reason: outcome.disableEndpoint });
      }
    });
  }
}

function storable(text: string, maxChars: number): string {
  return text.replaceAll('\u0000', '').slice(0, maxChars);
}
