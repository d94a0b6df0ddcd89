import { randomUUID } from 'node:crypto';
import { DEFAULT_WEBHOOK_EVENTS, type JobCreatedEventV1 } from '@vj/contracts';
import type { JobEvent } from '@vj/job-events';
import { IsNull, type DataSource } from 'typeorm';
import { WebhookEndpointEntity } from '../database/webhook-endpoint.entity';
import { DeliveryStore } from '../deliveries/delivery-store';
import { newEndpoint } from '../endpoints/new-endpoint';
import { accountSecret } from '../endpoints/webhook-endpoints';
import { endpointsFor, runningJob, webhookBody, webhookTypeOf } from '../domain/delivery-fan-out';

// The job as GET /v1/{type}/{job_id} answers it at the moment of the event (jobs RPC + presigned URLs);
// null for a job deleted since.
export interface JobReader {
  read(accountId: string, jobId: string): Promise<unknown>;
}

// Takes one job event: one delivery per endpoint that wants it, with the body rendered once (every
// attempt then sends the same bytes). A redelivered event writes nothing new (dedupe on the event id
// per endpoint), so the event may be acknowledged only after this resolves. A created event with the
// create's webhook_url makes that job's own endpoint first (events are taken in stream order).
export class JobEventIntake {
  private readonly store: DeliveryStore;

  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobReader,
    // New deliveries are due at once: the dispatch loop wakes for them.
    private readonly onDue: () => void = () => undefined,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.store = new DeliveryStore(dataSource);
  }

  async take(event: JobEvent): Promise<number> {
    if (event.kind === 'created') return this.addJobEndpoint(event.payload);
    const type = webhookTypeOf(event.kind);
    if (!type) return 0;
    const { account_id, job_id, event_id, occurred_at } = event.payload;
    // The account's own endpoints and this job's, never every job endpoint the account ever had.
    const candidates = await this.dataSource.manager.find(WebhookEndpointEntity, {
      where: [
        { account_id, job_id: IsNull(), deleted_at: IsNull(), disabled_at: IsNull() },
        { account_id, job_id, deleted_at: IsNull(), disabled_at: IsNull() },
      ],
    });
    const targets = endpointsFor(type, { account_id, job_id }, candidates);
    if (targets.length === 0) return 0;
    // A started job is PROCESSING, and GET shows nothing more then: rendered from the event, it is the
    // job as it was at the event even when the event is taken late. A final job no longer changes.
    const job = type === 'job.started' ? runningJob(job_id) : await this.jobs.read(account_id, job_id);
    if (job === null) return 0;
    const body = webhookBody(type, occurred_at, job);
    await this.store.add(
      targets.map((endpoint) => ({ delivery_id: randomUUID(), endpoint_id: endpoint.endpoint_id, source_id: event_id, event_type: type, job_id, body })),
      this.now(),
    );
    this.onDue();
    return targets.length;
  }

  // Signed with the account's default secret (made now if the account has none): the row keeps a copy,
  // the dispatcher signs with the account's current one.
  private async addJobEndpoint(created: JobCreatedEventV1): Promise<number> {
    if (!created.webhook_url) return 0;
    const url = created.webhook_url;
    await this.dataSource.transaction(async (manager) => {
      const now = this.now();
      const { secret } = await accountSecret(manager, created.account_id, now);
      await manager
        .createQueryBuilder()
        .insert()
        .into(WebhookEndpointEntity)
        .values(newEndpoint({ account_id: created.account_id, url, events: [...DEFAULT_WEBHOOK_EVENTS], job_id: created.job_id, secret, created_at: now }))
        .orIgnore()
        .execute();
    });
    return 0;
  }
}
