import { randomUUID } from 'node:crypto';
import type { JobProgressUpdateV1, JobStateUpdateV1 } from '@vj/contracts';
import { createDatabase } from '@vj/local-stack';
import type { NatsConnection } from 'nats';
import type { DataSource } from 'typeorm';
import { WebhookDeliveryEntity } from '../database/webhook-delivery.entity';
import { WebhookEndpointEntity } from '../database/webhook-endpoint.entity';
import { createWebhooksDataSource } from '../database/webhooks-data-source';
import { runWebhooksMigrations } from '../database/run-webhooks-migrations';
import { newWebhookSecret } from '../domain/endpoint-secrets';
import { JobProgressIntake, PROGRESS_FRESH_MS } from './job-progress-intake';

describe('JobProgressIntake', () => {
  let dataSource: DataSource;
  const now = new Date('2026-11-24T00:00:00Z');
  let nudges = 0;
  let intake: JobProgressIntake;

  beforeAll(async () => {
    dataSource = await createWebhooksDataSource(await createDatabase(process.env.TEST_DATABASE_ADMIN_URL!, 'webhooks_progress')).initialize();
    await runWebhooksMigrations(dataSource);
    // take() is what the pull loop calls; no connection is used by it.
    intake = new JobProgressIntake({} as NatsConnection, dataSource, () => nudges++, () => undefined, () => now);
  });

  afterAll(() => dataSource?.destroy());

  const endpoint = async (account_id: string, events: WebhookEndpointEntity['events']) => {
    const endpoint_id = randomUUID();
    await dataSource.manager.insert(WebhookEndpointEntity, {
      endpoint_id, account_id, url: 'https://hooks.example.com/p', events, job_id: null, secret: newWebhookSecret(),
      previous_secret: null, previous_secret_expires_at: null, disabled_at: null, disabled_reason: null, deleted_at: null, created_at: now,
    });
    return endpoint_id;
  };
  const progress = (account_id: string, job_id: string, occurredAt = now): JobProgressUpdateV1 => ({
    version: 1, kind: 'progress', job_id, account_id, job_type: 'clean-audio-video', occurred_at: occurredAt.toISOString(), stage: 'processing', progress: 0.5, attempt: 1,
  });

  it('delivers progress only to endpoints that opted in, beside the running job, once per update', async () => {
    const account = randomUUID();
    const jobId = randomUUID();
    const optedIn = await endpoint(account, ['job.progress', 'job.completed']);
    await endpoint(account, ['job.started', 'job.completed']);
    const before = nudges;
    expect(await intake.take(progress(account, jobId), 41)).toBe(1);
    expect(await intake.take(progress(account, jobId), 41)).toBe(1);
    const rows = await dataSource.manager.findBy(WebhookDeliveryEntity, { job_id: jobId });
    expect(rows).toEqual([expect.objectContaining({ endpoint_id: optedIn, event_type: 'job.progress' })]);
    expect(JSON.parse(rows[0]!.body)).toEqual({
      type: 'job.progress',
      timestamp: now.toISOString(),
      data: { job: { job_id: jobId, status: 'PROCESSING' }, progress: { stage: 'processing', progress: 0.5, attempt: 1 } },
    });
    expect(nudges).toBeGreaterThan(before);
  });

  it('drops stale progress and state updates', async () => {
    const account = randomUUID();
    await endpoint(account, ['job.progress']);
    const jobId = randomUUID();
    expect(await intake.take(progress(account, jobId, new Date(now.getTime() - PROGRESS_FRESH_MS - 1)), 1)).toBe(0);
    const state: JobStateUpdateV1 = { version: 1, kind: 'state', event: 'completed', status: 'COMPLETED', job_id: jobId, account_id: account, job_type: 'clean-audio-video', occurred_at: now.toISOString() };
    expect(await intake.take(state, 2)).toBe(0);
    expect(await dataSource.manager.countBy(WebhookDeliveryEntity, { job_id: jobId })).toBe(0);
  });
});
