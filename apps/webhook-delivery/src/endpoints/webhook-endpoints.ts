import {
  DEFAULT_WEBHOOK_EVENTS,
  isWebhookUrl,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_GRACE_SECONDS_DEFAULT,
  WEBHOOK_GRACE_SECONDS_MAX,
  type WebhookDefaultSecret,
  type WebhookDelivery,
  type WebhookDeliveryPage,
  type WebhooksRpc,
} from '@vj/contracts';
import { decodeCursor, encodeCursor } from '@vj/database';
import { RpcError } from '@vj/messaging';
import { In, IsNull, type DataSource, type EntityManager } from 'typeorm';
import { AccountSecretEntity } from '../database/account-secret.entity';
import { WebhookAttemptEntity } from '../database/webhook-attempt.entity';
import { WebhookDeliveryEntity } from '../database/webhook-delivery.entity';
import { WebhookEndpointEntity } from '../database/webhook-endpoint.entity';
import { retryByHand } from '../domain/delivery-state-machine';
import { newWebhookSecret, rotateSecret } from '../domain/endpoint-secrets';
import { deliveryView, endpointView, endpointWithSecret } from './endpoint-views';
import { newEndpoint } from './new-endpoint';

type Request<M extends keyof WebhooksRpc> = WebhooksRpc[M]['request'];
type Reply<M extends keyof WebhooksRpc> = WebhooksRpc[M]['reply'];

// An account's own endpoints (a create's webhook_url makes endpoints of one job, which are not listed).
export const ENDPOINTS_PER_ACCOUNT = 20;

export interface WebhookEndpointsHooks {
  // A delivery retried by hand is due now: the dispatch loop wakes for it.
  onDue?: () => void;
  // The account's own endpoints were added or deleted (the progress intake's cache forgets them).
  onChanged?: (accountId: string) => void;
  now?: () => Date;
}

// The account's endpoints, their deliveries and its default secret, as the RPC methods serve them. Every
// call is scoped to its account: another account's endpoint is not_found, never forbidden.
export class WebhookEndpoints {
  private readonly onDue: () => void;
  private readonly onChanged: (accountId: string) => void;
  private readonly now: () => Date;

  constructor(
    private readonly dataSource: DataSource,
    hooks: WebhookEndpointsHooks = {},
  ) {
    this.onDue = hooks.onDue ?? (() => undefined);
    this.onChanged = hooks.onChanged ?? (() => undefined);
    this.now = hooks.now ?? (() => new Date());
  }

  async create(request: Request<'create_endpoint'>): Promise<Reply<'create_endpoint'>> {
    if (!isWebhookUrl(request.url)) throw new RpcError('invalid_request', 'url must be an http(s) URL of at most 2048 characters without credentials');
    const events = request.events?.length ? [...new Set(request.events)] : [...DEFAULT_WEBHOOK_EVENTS];
    if (events.some((event) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(event))) throw new RpcError('invalid_request', 'unknown event type');
    const created = await this.dataSource.transaction(async (manager) => {
      // The account's row is the lock that keeps two concurrent creates within the limit.
      await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`webhook-endpoints:${request.account_id}`]);
      const count = await manager.countBy(WebhookEndpointEntity, { account_id: request.account_id, job_id: IsNull(), deleted_at: IsNull() });
      if (count >= ENDPOINTS_PER_ACCOUNT) throw new RpcError('conflict', `an account has at most ${ENDPOINTS_PER_ACCOUNT} webhook endpoints; delete one first`);
      const now = this.now();
      const row = newEndpoint({ account_id: request.account_id, url: request.url, events, job_id: null, secret: newWebhookSecret(), created_at: now });
      await manager.insert(WebhookEndpointEntity, row);
      return endpointWithSecret(row, now);
    });
    this.onChanged(request.account_id);
    return created;
  }

  async list(request: Request<'list_endpoints'>): Promise<Reply<'list_endpoints'>> {
    const rows = await this.dataSource.manager.find(WebhookEndpointEntity, {
      where: { account_id: request.account_id, job_id: request.job_id ?? IsNull(), deleted_at: IsNull() },
      order: { created_at: 'ASC', endpoint_id: 'ASC' },
    });
    const now = this.now();
    return { data: rows.map((row) => endpointView(row, now)) };
  }

  // Its pending deliveries are given up when they come due (nothing more is sent); attempts stay listed.
  async delete(request: Request<'delete_endpoint'>): Promise<Reply<'delete_endpoint'>> {
    await this.ownEndpoint(this.dataSource.manager, request.account_id, request.endpoint_id);
    await this.dataSource.manager.update(WebhookEndpointEntity, { endpoint_id: request.endpoint_id, deleted_at: IsNull() }, { deleted_at: this.now() });
    this.onChanged(request.account_id);
    return { deleted: true };
  }

  async rotate(request: Request<'rotate_endpoint_secret'>): Promise<Reply<'rotate_endpoint_secret'>> {
    const graceMs = graceOf(request.grace_seconds);
    return this.dataSource.transaction(async (manager) => {
      const row = await this.ownEndpoint(manager, request.account_id, request.endpoint_id, true);
      if (row.job_id) throw new RpcError('conflict', "a job's own endpoint signs with the account's default secret: rotate that (POST /v1/webhook-secret/rotate)");
      const now = this.now();
      Object.assign(row, rotateSecret(row, now, graceMs));
      await manager.update(WebhookEndpointEntity, { endpoint_id: row.endpoint_id }, {
        secret: row.secret,
        previous_secret: row.previous_secret,
        previous_secret_expires_at: row.previous_secret_expires_at,
      });
      return endpointWithSecret(row, now);
    });
  }

  // Newest first, each with every attempt in order.
  async deliveries(request: Request<'list_deliveries'>): Promise<WebhookDeliveryPage> {
    await this.ownEndpoint(this.dataSource.manager, request.account_id, request.endpoint_id);
    const after = request.cursor ? decodeCursor(request.cursor) : undefined;
    if (after === null) throw new RpcError('invalid_request', 'cursor is not one this API returned');
    const query = this.dataSource.manager
      .createQueryBuilder(WebhookDeliveryEntity, 'd')
      .where('d.endpoint_id = :endpointId', { endpointId: request.endpoint_id })
      .orderBy('d.created_at', 'DESC')
      .addOrderBy('d.delivery_id', 'DESC')
      .limit(request.limit + 1);
    if (after) query.andWhere('(d.created_at, d.delivery_id) < (:createdAt, :id)', { createdAt: after.createdAt, id: after.id });
    const rows = await query.getMany();
    const page = rows.slice(0, request.limit);
    const last = page[page.length - 1];
    return {
      data: await this.withAttempts(page),
      next_cursor: rows.length > request.limit && last ? encodeCursor({ createdAt: last.created_at, id: last.delivery_id }) : null,
    };
  }

  // Once more, now, whatever happened before; refused while an attempt is in flight or the endpoint is off.
  async retry(request: Request<'retry_delivery'>): Promise<WebhookDelivery> {
    const delivery = await this.dataSource.transaction(async (manager) => {
      const endpoint = await this.ownEndpoint(manager, request.account_id, request.endpoint_id);
      if (endpoint.disabled_at) throw new RpcError('conflict', `the endpoint is disabled (${endpoint.disabled_reason ?? 'by its owner'}); create a new one`);
      const row = await manager.findOne(WebhookDeliveryEntity, {
        where: { delivery_id: request.delivery_id, endpoint_id: request.endpoint_id },
        lock: { mode: 'pessimistic_write' },
      });
      if (!row) throw new RpcError('not_found', `no delivery ${request.delivery_id} for this endpoint`);
      if (row.claimed_until && row.claimed_until > this.now()) throw new RpcError('conflict', 'an attempt of this delivery is in flight; retry once it is recorded');
      Object.assign(row, retryByHand(this.now()), { claimed_until: null });
      await manager.update(WebhookDeliveryEntity, { delivery_id: row.delivery_id }, {
        state: row.state,
        failed_attempts: row.failed_attempts,
        next_attempt_at: row.next_attempt_at,
        claimed_until: null,
      });
      return row;
    });
    this.onDue();
    const [view] = await this.withAttempts([delivery]);
    return view!;
  }

  async defaultSecret(request: Request<'get_default_secret'>): Promise<WebhookDefaultSecret> {
    return secretView(await accountSecret(this.dataSource.manager, request.account_id, this.now()), this.now());
  }

  async rotateDefaultSecret(request: Request<'rotate_default_secret'>): Promise<WebhookDefaultSecret> {
    const graceMs = graceOf(request.grace_seconds);
    return this.dataSource.transaction(async (manager) => {
      const now = this.now();
      await accountSecret(manager, request.account_id, now);
      const row = await manager.findOneOrFail(AccountSecretEntity, { where: { account_id: request.account_id }, lock: { mode: 'pessimistic_write' } });
      Object.assign(row, rotateSecret(row, now, graceMs));
      await manager.save(row);
      return secretView(row, now);
    });
  }

  private async ownEndpoint(manager: EntityManager, accountId: string, endpointId: string, lock = false): Promise<WebhookEndpointEntity> {
    const row = await manager.findOne(WebhookEndpointEntity, {
      where: { endpoint_id: endpointId, account_id: accountId, deleted_at: IsNull() },
      ...(lock && { lock: { mode: 'pessimistic_write' as const } }),
    });
    if (!row) throw new RpcError('not_found', `no webhook endpoint ${endpointId}`);
    return row;
  }

  private async withAttempts(rows: WebhookDeliveryEntity[]): Promise<WebhookDelivery[]> {
    if (rows.length === 0) return [];
    const attempts = await this.dataSource.manager.find(WebhookAttemptEntity, {
      where: { delivery_id: In(rows.map((row) => row.delivery_id)) },
      order: { attempt_seq: 'ASC' },
    });
    return rows.map((row) => deliveryView(row, attempts.filter((attempt) => attempt.delivery_id === row.delivery_id)));
  }
}

function graceOf(seconds: number | undefined): number {
  const grace = seconds ?? WEBHOOK_GRACE_SECONDS_DEFAULT;
  if (!Number.isInteger(grace) || grace < 0 || grace > WEBHOOK_GRACE_SECONDS_MAX) {
    throw new RpcError('invalid_request', `grace_seconds must be an integer from 0 to ${WEBHOOK_GRACE_SECONDS_MAX}`);
  }
  return grace * 1000;
}

// The account's default secret, made on first use (two first uses at once agree on one).
export async function accountSecret(manager: EntityManager, accountId: string, now: Date): Promise<AccountSecretEntity> {
  await manager
    .createQueryBuilder()
    .insert()
    .into(AccountSecretEntity)
    .values({ account_id: accountId, secret: newWebhookSecret(), previous_secret: null, previous_secret_expires_at: null, created_at: now })
    .orIgnore()
    .execute();
  return manager.findOneByOrFail(AccountSecretEntity, { account_id: accountId });
}

function secretView(row: AccountSecretEntity, now: Date): WebhookDefaultSecret {
  const graceRunning = row.previous_secret_expires_at !== null && row.previous_secret_expires_at > now;
  return { secret: row.secret, previous_secret_expires_at: graceRunning ? row.previous_secret_expires_at!.toISOString() : null };
}
