import { randomUUID } from 'node:crypto';
import { CONSUMERS, STREAMS, subjects, type JobProgressUpdateV1, type JobStateUpdateV1 } from '@vj/contracts';
import { createDatabase, startNatsServer, waitFor, type LocalNatsServer } from '@vj/local-stack';
import { encodeJson, ensureStreams } from '@vj/messaging';
import { connect, type NatsConnection } from 'nats';
import { In, type DataSource } from 'typeorm';
import { WebhookDeliveryEntity } from '../database/webhook-delivery.entity';
import { WebhookEndpointEntity } from '../database/webhook-endpoint.entity';
import { createWebhooksDataSource } from '../database/webhooks-data-source';
import { runWebhooksMigrations } from '../database/run-webhooks-migrations';
import { newWebhookSecret } from '../domain/endpoint-secrets';
import { JobProgressIntake, PROGRESS_FRESH_MS } from './job-progress-intake';
import { ProgressEndpoints } from './progress-endpoints';

describe('JobProgressIntake', () => {
  let dataSource: DataSource;
  const now = new Date('2026-11-24T00:00:00Z');
  let nudges = 0;
  let intake: JobProgressIntake;
  // The cache's clock: the tests move it past the time-to-live.
  let clockMs = 1_000_000;
  let endpoints: ProgressEndpoints;

  beforeAll(async () => {
    dataSource = await createWebhooksDataSource(await createDatabase(process.env.TEST_DATABASE_ADMIN_URL!, 'webhooks_progress')).initialize();
    await runWebhooksMigrations(dataSource);
    endpoints = new ProgressEndpoints(dataSource, 5_000, { now: () => clockMs });
    // take() is what the pull loop calls; no connection is used by it.
    intake = new JobProgressIntake({} as NatsConnection, dataSource, endpoints, () => nudges++, () => undefined, () => now);
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

  it("reads an account's endpoints once for its updates until they expire or change here", async () => {
    const account = randomUUID();
    const job = randomUUID();
    expect(await intake.take(progress(account, job), 100)).toBe(0);
    // Added elsewhere (another instance, a direct insert): not seen until the answer expires.
    const added = await endpoint(account, ['job.progress']);
    expect(await intake.take(progress(account, job), 101)).toBe(0);
    clockMs += 5_001;
    expect(await intake.take(progress(account, job), 102)).toBe(1);
    // Deleted through this instance (WebhookEndpoints' onChanged): forgotten at once.
    await dataSource.manager.update(WebhookEndpointEntity, { endpoint_id: added }, { deleted_at: now });
    endpoints.forget(account);
    expect(await intake.take(progress(account, job), 103)).toBe(0);
  });

  it('shares one read among the concurrent updates of an account', async () => {
    const account = randomUUID();
    await endpoint(account, ['job.progress']);
    let queries = 0;
    const counting = new ProgressEndpoints({ manager: { find: async (...args: Parameters<DataSource['manager']['find']>) => (queries++, dataSource.manager.find(...args)) } } as unknown as DataSource);
    const answers = await Promise.all(Array.from({ length: 20 }, () => counting.of(account)));
    expect(new Set(answers.map((ids) => ids.length))).toEqual(new Set([1]));
    expect(queries).toBe(1);
  });

  describe('pulling VJ_JOB_UPDATES', () => {
    let nats: LocalNatsServer;
    let nc: NatsConnection;

    beforeAll(async () => {
      nats = await startNatsServer();
      nc = await connect({ servers: nats.url });
      await ensureStreams(nc);
    });

    afterAll(async () => {
      await nc?.drain();
      await nats?.stop();
    });

    it('makes a delivery of every fresh progress update of many jobs, in one pull, and acknowledges the rest', async () => {
      const account = randomUUID();
      await endpoint(account, ['job.progress']);
      const live = new JobProgressIntake(nc, dataSource, new ProgressEndpoints(dataSource), () => undefined, () => undefined);
      const jobs = Array.from({ length: 150 }, () => randomUUID());
      const occurred = new Date();
      for (const job of jobs) await nc.jetstream().publish(subjects.jobUpdate(job), encodeJson(progress(account, job, occurred)));
      await nc.jetstream().publish(subjects.jobUpdate(jobs[0]!), encodeJson({ version: 1, kind: 'state', event: 'started', status: 'PROCESSING', job_id: jobs[0], account_id: account, job_type: 'clean-audio-video', occurred_at: occurred.toISOString() }));
      await live.start();
      try {
        await waitFor('a delivery per job', async () => (await dataSource.manager.countBy(WebhookDeliveryEntity, { event_type: 'job.progress', job_id: In(jobs) })) === jobs.length);
        const jsm = await nc.jetstreamManager();
        await waitFor('every update acknowledged', async () => (await jsm.consumers.info(STREAMS.jobUpdates, CONSUMERS.webhooksJobUpdates)).num_ack_pending === 0, 5_000);
      } finally {
        await live.stop();
      }
    });
  });
});
