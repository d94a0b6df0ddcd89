import { randomUUID } from 'node:crypto';
import type { JobEvent } from '@vj/job-events';
import { IsNull, type DataSource } from 'typeorm';
import { WebhookEndpointEntity } from '../database/webhook-endpoint.entity';
import { DeliveryStore } from '../deliveries/delivery-store';
import { endpointsFor, webhookBody, webhookTypeOf } from '../domain/delivery-fan-out';

// The job as GET /v1/{type}/{job_id} answers it at the moment of the event (jobs RPC + presigned URLs).
export interface JobReader {
  read(accountId: string, jobId: string): Promise<unknown>;
}

// Takes one job event: one delivery per endpoint that wants it, with the body rendered once (every
// attempt then sends the same bytes). A redelivered event writes nothing new (dedupe on the event id
// per endpoint), so the event may be acknowledged only after this resolves.
export class JobEventIntake {
  private readonly store: DeliveryStore;

  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobReader,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.store = new DeliveryStore(dataSource);
  }

  async take(event: JobEvent): Promise<number> {
    const type = webhookTypeOf(event.kind);
    if (!type) return 0;
    const { account_id, job_id, event_id, occurred_at } = event.payload;
    const candidates = await this.dataSource.manager.findBy(WebhookEndpointEntity, { account_id, deleted_at: IsNull(), disabled_at: IsNull() });
    const targets = endpointsFor(type, { account_id, job_id }, candidates);
    if (targets.length === 0) return 0;
    const body = webhookBody(type, occurred_at, await this.jobs.read(account_id, job_id));
    await this.store.add(
      targets.map((endpoint) => ({ delivery_id: randomUUID(), endpoint_id: endpoint.endpoint_id, source_id: event_id, event_type: type, job_id, body })),
      this.now(),
    );
    return targets.length;
  }
}
