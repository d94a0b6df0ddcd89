import { randomUUID } from 'node:crypto';
import type { JobEvent } from '@vj/job-events';
import { createDatabase } from '@vj/local-stack';
import type { DataSource } from 'typeorm';
import { AccountSecretEntity } from '../database/account-secret.entity';
import { WebhookDeliveryEntity } from '../database/webhook-delivery.entity';
import { WebhookEndpointEntity } from '../database/webhook-endpoint.entity';
import { createWebhooksDataSource } from '../database/webhooks-data-source';
import { runWebhooksMigrations } from '../database/run-webhooks-migrations';
import { newWebhookSecret } from '../domain/endpoint-secrets';
import { JobEventIntake } from './job-event-intake';

describe('JobEventIntake', () => {
  let dataSource: DataSource;
  const now = new Date('2026-11-24T00:00:00Z');

  beforeAll(async () => {
    dataSource = await createWebhooksDataSource(await createDatabase(process.env.TEST_DATABASE_ADMIN_URL!, 'webhooks_intake')).initialize();
    await runWebhooksMigrations(dataSource);
  });

  afterAll(() => dataSource?.destroy());

  const insertEndpoint = async (account_id: string, overrides: Partial<WebhookEndpointEntity> = {}) => {
    const endpoint_id = randomUUID();
    await dataSource.manager.insert(WebhookEndpointEntity, {
      endpoint_id, account_id, url: 'https://hooks.example.com/in', events: ['job.started', 'job.completed', 'job.failed', 'job.cancelled'], job_id: null,
      secret: newWebhookSecret(), previous_secret: null, previous_secret_expires_at: null, disabled_at: null, disabled_reason: null, deleted_at: null, created_at: now,
      ...overrides,
    });
    return endpoint_id;
  };
  const completed = (account_id: string, job_id: string, event_id = randomUUID()): JobEvent => ({
    kind: 'completed',
    payload: {
      version: 1, job_id, account_id, job_type: 'clean-audio-video', event_id, occurred_at: now.toISOString(),
      result: { job_type: 'clean-audio-video', video: { object_key: 'k', content_type: 'video/mp4', file_name: 'f.mp4', file_size: 1 } }, media_duration_seconds: 2,
    },
  });

  it('writes one delivery per endpoint that wants the event, with the job as the reader renders it, once per event', async () => {
    const account = randomUUID();
    const jobId = randomUUID();
    const wanted = [await insertEndpoint(account), await insertEndpoint(account, { job_id: jobId })];
    await insertEndpoint(account, { events: ['job.failed'] });
    await insertEndpoint(account, { disabled_at: now });
    await insertEndpoint(randomUUID());
    const reads: string[] = [];
    const intake = new JobEventIntake(dataSource, { read: async (_account, id) => (reads.push(id), { job_id: id, status: 'COMPLETED' }) }, () => undefined, () => now);
    const event = completed(account, jobId);
    expect(await intake.take(event)).toBe(2);
    expect(await intake.take(event)).toBe(2);
    const rows = await dataSource.manager.findBy(WebhookDeliveryEntity, { job_id: jobId });
    expect(rows.map((r) => r.endpoint_id).sort()).toEqual([...wanted].sort());
    expect(JSON.parse(rows[0].body)).toEqual({ type: 'job.completed', timestamp: now.toISOString(), data: { job: { job_id: jobId, status: 'COMPLETED' } } });
    expect(rows.every((r) => r.state === 'pending' && r.next_attempt_at?.getTime() === now.getTime())).toBe(true);
    expect(reads).toEqual([jobId, jobId]);
  });

  it('reads no job and writes nothing when no endpoint wants it, or for a created event', async () => {
    const account = randomUUID();
    const reads: string[] = [];
    const intake = new JobEventIntake(dataSource, { read: async (_account, id) => (reads.push(id), {}) }, () => undefined, () => now);
    expect(await intake.take(completed(account, randomUUID()))).toBe(0);
    await insertEndpoint(account);
    expect(await intake.take({ kind: 'created', payload: { ...completed(account, randomUUID()).payload, options: { strength: 1, normalize_loudness: true, target_lufs: -16 } } } as JobEvent)).toBe(0);
    expect(reads).toEqual([]);
  });

  it("makes a created event's webhook_url the job's own endpoint (once), signed with the account's default secret", async () => {
    const account = randomUUID();
    const jobId = randomUUID();
    const intake = new JobEventIntake(dataSource, { read: async (_account, id) => ({ job_id: id, status: 'COMPLETED' }) }, () => undefined, () => now);
    const created = { kind: 'created', payload: { ...completed(account, jobId).payload, options: { strength: 1, normalize_loudness: true, target_lufs: -16 }, webhook_url: 'https://hooks.example.com/job' } } as JobEvent;
    await intake.take(created);
    await intake.take(created);
    const own = await dataSource.manager.findBy(WebhookEndpointEntity, { job_id: jobId });
    expect(own).toEqual([expect.objectContaining({ account_id: account, url: 'https://hooks.example.com/job', events: ['job.started', 'job.completed', 'job.failed', 'job.cancelled'] })]);
    const secret = await dataSource.manager.findOneByOrFail(AccountSecretEntity, { account_id: account });
    expect(own[0]!.secret).toBe(secret.secret);
    expect(await intake.take(completed(account, jobId))).toBe(1);
    // Another job of the account does not reach it.
    expect(await intake.take(completed(account, randomUUID()))).toBe(0);
  });

  it('writes nothing for a job deleted before its event was taken', async () => {
    const account = randomUUID();
    await insertEndpoint(account);
    const intake = new JobEventIntake(dataSource, { read: async () => null }, () => undefined, () => now);
    const jobId = randomUUID();
    expect(await intake.take(completed(account, jobId))).toBe(0);
    expect(await dataSource.manager.countBy(WebhookDeliveryEntity, { job_id: jobId })).toBe(0);
  });
});
