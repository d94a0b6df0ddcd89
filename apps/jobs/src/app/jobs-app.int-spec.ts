import {
  CLEAN_AUDIO_DEFAULTS,
  BACKGROUND_REMOVAL_DEFAULTS,
  CONSUMERS,
  STREAMS,
  subjects,
  type BillingEventKind,
  type BillingEventPayloads,
  type CreateJobRequestV1,
  type CreditEstimateV1,
  type JobRecordV1,
  type StoredResultV1,
} from '@vj/contracts';
import { waitFor } from '@vj/local-stack';
import { decodeJson, ensureConsumer, pingHealth, type JetStreamPublisher, type JobsRpcClient } from '@vj/messaging';
import { randomUUID } from 'node:crypto';
import type { JetStreamManager, NatsConnection } from 'nats';
import type { Client } from 'pg';
import { startJobsApp, type JobsAppHarness } from '../testing/jobs-app-harness';

const ACCOUNT = randomUUID();
const OTHER_ACCOUNT = randomUUID();
const result: StoredResultV1 = { job_type: 'clean-audio-video', video: { object_key: 'results/x/out.mp4', content_type: 'video/mp4', file_name: 'out.mp4', file_size: 10 } };

const estimate: CreditEstimateV1 = { credits_estimated: 12, duration_seconds: 61.2, basis: 'probed_duration', price_version: 3 };

function cleanAudio(overrides: Partial<CreateJobRequestV1> = {}): CreateJobRequestV1 {
  return { version: 1, account_id: ACCOUNT, job_type: 'clean-audio-video', input: { kind: 'url', url: 'https://example.com/a.mp4' }, options: CLEAN_AUDIO_DEFAULTS, ...overrides };
}

describe('jobs service over NATS and PostgreSQL', () => {
  let harness: JobsAppHarness;
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  let rpc: JobsRpcClient;
  let publisher: JetStreamPublisher;
  let db: Client;

  beforeAll(async () => {
    harness = await startJobsApp('jobs_app', { JOB_TIMEOUT_GRACE_SECONDS: '0' });
    ({ nc, jsm, rpc, publisher, db } = harness);
  });

  afterAll(() => harness?.stop());

  async function messagesOf(stream: string, jobId: string): Promise<{ subject: string; payload: Record<string, unknown> }[]> {
    const { state } = await jsm.streams.info(stream);
    const found = [];
    for (let seq = state.first_seq; seq <= state.last_seq && state.messages > 0; seq++) {
      const stored = await jsm.streams.getMessage(stream, { seq }).catch(() => null);
      const payload = stored && decodeJson<Record<string, unknown>>(stored.data);
      if (stored && payload?.job_id === jobId) found.push({ subject: stored.subject, payload });
    }
    return found;
  }
  const eventsOf = async (jobId: string) => (await messagesOf(STREAMS.jobEvents, jobId)).map((m) => m.subject);
  const settle = () => new Promise((r) => setTimeout(r, 400));
  const getJob = (jobId: string) => rpc.call('get', { version: 1, account_id: ACCOUNT, job_id: jobId });

  // What billing publishes; `copy` tells a republished event apart from the stream's dedup of the same msgId.
  type BillingExtra<K extends BillingEventKind> = Omit<BillingEventPayloads[K], 'version' | 'event_id' | 'occurred_at' | 'job_id' | 'account_id' | 'job_type'>;
  async function publishBilling<K extends BillingEventKind>(kind: K, job: JobRecordV1, extra: BillingExtra<K>, copy = 0): Promise<void> {
    const base = { version: 1, event_id: randomUUID(), occurred_at: new Date().toISOString(), job_id: job.job_id, account_id: job.account_id, job_type: job.job_type };
    await publisher.publish(subjects.billingEvent(kind), { ...base, ...extra }, { msgId: `${job.job_id}.${kind}${copy ? `.${copy}` : ''}` });
  }
  const holdPlaced = (job: JobRecordV1, copy = 0) => publishBilling('hold_placed', job, { credits_held: 12, price_version: 3 }, copy);
  const billingEventsSettled = async () => {
    const info = await jsm.consumers.info(STREAMS.billingEvents, CONSUMERS.jobsBillingEvents);
    return info.num_pending === 0 && info.num_ack_pending === 0;
  };

  it('creates a job with its estimate and publishes only the created event, carrying the estimate', async () => {
    const { job, replayed } = await rpc.call('create', cleanAudio({ estimate }));
    expect(replayed).toBe(false);
    expect(job).toMatchObject({ account_id: ACCOUNT, job_type: 'clean-audio-video', status: 'PROCESSING', credits_estimated: 12, credits_charged: null, result: null, error: null });
    await waitFor('outbox published', async () => (await eventsOf(job.job_id)).length === 1);
    await settle();
    const events = await messagesOf(STREAMS.jobEvents, job.job_id);
    expect(events).toEqual([{ subject: subjects.jobEvent('created'), payload: expect.objectContaining({ job_id: job.job_id, options: CLEAN_AUDIO_DEFAULTS, estimate }) }]);
    expect(await messagesOf(STREAMS.work, job.job_id)).toEqual([]);
    const { rows } = await db.query('SELECT count(*)::int AS n FROM jobs.outbox WHERE published_at IS NULL');
    expect(rows[0].n).toBe(0);
  });

  it('publishes the work message exactly once when hold_placed arrives, even twice', async () => {
    const { job } = await rpc.call('create', cleanAudio({ estimate }));
    await waitFor('created event', async () => (await eventsOf(job.job_id)).length === 1);
    await holdPlaced(job);
    await waitFor('work published', async () => (await messagesOf(STREAMS.work, job.job_id)).length === 1);
    await holdPlaced(job, 1);
    await waitFor('billing events consumed', billingEventsSettled);
    await settle();
    const work = await messagesOf(STREAMS.work, job.job_id);
    expect(work).toEqual([{ subject: subjects.work('clean-audio-video'), payload: expect.objectContaining({ version: 1, job_id: job.job_id, options: CLEAN_AUDIO_DEFAULTS }) }]);
    expect(await eventsOf(job.job_id)).toEqual([subjects.jobEvent('created')]);
    const { rows } = await db.query('SELECT count(*)::int AS n FROM jobs.outbox WHERE msg_id = $1', [job.job_id]);
    expect(rows[0].n).toBe(1);
  });

  it('sends no work for a hold_placed that arrives after the job was cancelled', async () => {
    const { job } = await rpc.call('create', cleanAudio({ estimate }));
    await rpc.call('cancel', { version: 1, account_id: ACCOUNT, job_id: job.job_id });
    await holdPlaced(job);
    await waitFor('billing events consumed', billingEventsSettled);
    await settle();
    expect(await messagesOf(STREAMS.work, job.job_id)).toEqual([]);
    expect((await getJob(job.job_id)).status).toBe('CANCELLED');
    expect(await eventsOf(job.job_id)).toEqual([subjects.jobEvent('created'), subjects.jobEvent('cancelled')]);
  });

  it('fails the job with insufficient_credits on hold_rejected, with its failed event, and ignores a second one', async () => {
    const { job } = await rpc.call('create', cleanAudio({ estimate }));
    await publishBilling('hold_rejected', job, { credits_required: 12, credits_available: 3 });
    await waitFor('failed', async () => (await getJob(job.job_id)).status === 'FAILED');
    const error = { code: 'insufficient_credits', message: "the account's available credits (3) do not cover the estimate of this job (12)", details: null };
    expect((await getJob(job.job_id)).error).toEqual(error);
    await waitFor('failed event', async () => (await eventsOf(job.job_id)).includes(subjects.jobEvent('failed')));
    await publishBilling('hold_rejected', job, { credits_required: 12, credits_available: 0 }, 1);
    await waitFor('billing events consumed', billingEventsSettled);
    await settle();
    const events = await messagesOf(STREAMS.jobEvents, job.job_id);
    expect(events.map((e) => e.subject)).toEqual([subjects.jobEvent('created'), subjects.jobEvent('failed')]);
    expect(events[1].payload).toMatchObject({ job_id: job.job_id, error });
    expect(await messagesOf(STREAMS.work, job.job_id)).toEqual([]);
  });

  it('stores credits_charged from charge_captured, once, however often it is delivered', async () => {
    const { job } = await rpc.call('create', cleanAudio({ estimate }));
    await holdPlaced(job);
    await waitFor('work published', async () => (await messagesOf(STREAMS.work, job.job_id)).length === 1);
    const base = { version: 1 as const, job_id: job.job_id, account_id: ACCOUNT, job_type: job.job_type };
    await publisher.publish(subjects.report('succeeded'), { ...base, result, media_duration_seconds: 55 }, { msgId: `${job.job_id}.succeeded` });
    await waitFor('completed', async () => (await getJob(job.job_id)).status === 'COMPLETED');
    const charge = { credits_charged: 11, credits_priced: 11, credits_released: 1, billed_seconds: 55, price_version: 3 };
    await publishBilling('charge_captured', job, charge);
    await waitFor('charged', async () => (await getJob(job.job_id)).credits_charged === 11);
    const charged = await getJob(job.job_id);
    await publishBilling('charge_captured', job, charge, 1);
    await publishBilling('hold_released', job, { credits_released: 0 });
    await waitFor('billing events consumed', billingEventsSettled);
    await settle();
    expect(await getJob(job.job_id)).toEqual(charged);
    expect(charged).toMatchObject({ status: 'COMPLETED', credits_estimated: 12, credits_charged: 11, result });
    expect(await eventsOf(job.job_id)).toEqual([subjects.jobEvent('created'), subjects.jobEvent('completed')]);
  });

  it('replays the original job for the same Idempotency-Key and body, and refuses another body', async () => {
    const idempotency = { key: `key-${randomUUID()}`, request_hash: 'hash-a' };
    const first = await rpc.call('create', cleanAudio({ idempotency }));
    const again = await rpc.call('create', cleanAudio({ idempotency }));
    expect(again).toEqual({ job: first.job, replayed: true });
    await expect(rpc.call('create', cleanAudio({ idempotency: { ...idempotency, request_hash: 'hash-b' } }))).rejects.toMatchObject({ code: 'conflict' });
    // The gateway looks a key up before quoting: the same answers without a create.
    expect(await rpc.call('replay', { version: 1, account_id: ACCOUNT, idempotency })).toEqual({ job: first.job, replayed: true });
    expect(await rpc.call('replay', { version: 1, account_id: ACCOUNT, idempotency: { ...idempotency, key: 'unused' } })).toBeNull();
    expect(await rpc.call('replay', { version: 1, account_id: OTHER_ACCOUNT, idempotency })).toBeNull();
    await expect(rpc.call('replay', { version: 1, account_id: ACCOUNT, idempotency: { ...idempotency, request_hash: 'hash-b' } })).rejects.toMatchObject({ code: 'conflict' });
    await settle();
    expect(await eventsOf(first.job.job_id)).toEqual([subjects.jobEvent('created')]);
  });

  it('creates a single job when concurrent creates share an Idempotency-Key', async () => {
    const idempotency = { key: `key-${randomUUID()}`, request_hash: 'hash' };
    const replies = await Promise.all(Array.from({ length: 5 }, () => rpc.call('create', cleanAudio({ idempotency }))));
    expect(new Set(replies.map((r) => r.job.job_id)).size).toBe(1);
    expect(replies.filter((r) => !r.replayed)).toHaveLength(1);
  });

  it("refuses concurrent creates past the account's cap on PROCESSING jobs with rate_limited: exactly the cap get in", async () => {
    const account = randomUUID();
    const outcomes = await Promise.allSettled(Array.from({ length: 12 }, () => rpc.call('create', cleanAudio({ account_id: account, max_processing_jobs: 4 }))));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(4);
    const refusals = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected').map((o) => (o.reason as { code: string }).code);
    expect(refusals).toEqual(Array(8).fill('rate_limited'));
    // A job that ends frees its place.
    const first = outcomes.find((o): o is PromiseFulfilledResult<{ job: JobRecordV1; replayed: boolean }> => o.status === 'fulfilled')!.value.job;
    await rpc.call('cancel', { version: 1, account_id: account, job_id: first.job_id });
    await expect(rpc.call('create', cleanAudio({ account_id: account, max_processing_jobs: 4 }))).resolves.toMatchObject({ replayed: false });
    await expect(rpc.call('create', cleanAudio({ account_id: account, max_processing_jobs: 4 }))).rejects.toMatchObject({ code: 'rate_limited' });
  });

  it("cancels every PROCESSING job of a suspended account with its cancelled event, and nothing of another account", async () => {
    const suspended = randomUUID();
    const jobs = await Promise.all([1, 2, 3].map(() => rpc.call('create', cleanAudio({ account_id: suspended }))));
    const bystander = (await rpc.call('create', cleanAudio())).job;
    await rpc.call('cancel', { version: 1, account_id: suspended, job_id: jobs[0].job.job_id });
    expect(await rpc.call('cancel_account', { version: 1, account_id: suspended })).toEqual({ cancelled: 2 });
    expect(await rpc.call('cancel_account', { version: 1, account_id: suspended })).toEqual({ cancelled: 0 });
    for (const { job } of jobs) expect((await rpc.call('get', { version: 1, account_id: suspended, job_id: job.job_id })).status).toBe('CANCELLED');
    await waitFor('the cancelled event', async () => (await eventsOf(jobs[1].job.job_id)).length === 2);
    expect(await eventsOf(jobs[1].job.job_id)).toEqual([subjects.jobEvent('created'), subjects.jobEvent('cancelled')]);
    expect((await getJob(bystander.job_id)).status).toBe('PROCESSING');
  });

  it("hides another account's job and a job of the other type as not_found", async () => {
    const { job } = await rpc.call('create', cleanAudio());
    await expect(rpc.call('get', { version: 1, account_id: ACCOUNT, job_id: job.job_id, job_type: 'clean-audio-video' })).resolves.toEqual(job);
    await expect(rpc.call('get', { version: 1, account_id: OTHER_ACCOUNT, job_id: job.job_id })).rejects.toMatchObject({ code: 'not_found' });
    await expect(rpc.call('get', { version: 1, account_id: ACCOUNT, job_id: job.job_id, job_type: 'video-background-removal' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(rpc.call('cancel', { version: 1, account_id: OTHER_ACCOUNT, job_id: job.job_id })).rejects.toMatchObject({ code: 'not_found' });
    await expect(rpc.call('get', { version: 1, account_id: ACCOUNT, job_id: 'not-a-uuid' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('cancels a processing job with a cancelled event, and answers conflict when it is already final', async () => {
    const { job } = await rpc.call('create', cleanAudio());
    const cancelled = await rpc.call('cancel', { version: 1, account_id: ACCOUNT, job_id: job.job_id });
    expect(cancelled.status).toBe('CANCELLED');
    await expect(rpc.call('cancel', { version: 1, account_id: ACCOUNT, job_id: job.job_id })).rejects.toMatchObject({ code: 'conflict' });
    await waitFor('cancelled event', async () => (await eventsOf(job.job_id)).includes(subjects.jobEvent('cancelled')));
  });

  it('completes a job on a succeeded report and ignores duplicate and late reports', async () => {
    const { job } = await rpc.call('create', cleanAudio());
    const base = { version: 1 as const, job_id: job.job_id, account_id: ACCOUNT, job_type: job.job_type };
    await publisher.publish(subjects.report('started'), { ...base, attempt: 1, worker_id: 'w1' }, { msgId: `${job.job_id}.started.1` });
    // Reports are handled concurrently; a started report that loses the race to succeeded is ignored.
    await waitFor('started', async () => (await db.query('SELECT attempts FROM jobs.job WHERE job_id = $1', [job.job_id])).rows[0].attempts === 1);
    await publisher.publish(subjects.report('succeeded'), { ...base, result, media_duration_seconds: 42.5 }, { msgId: `${job.job_id}.succeeded` });
    await waitFor('completed', async () => (await rpc.call('get', { version: 1, account_id: ACCOUNT, job_id: job.job_id })).status === 'COMPLETED');
    await publisher.publish(subjects.report('succeeded'), { ...base, result, media_duration_seconds: 1 }, { msgId: `${job.job_id}.succeeded.dup` });
    await publisher.publish(subjects.report('failed'), { ...base, error: { code: 'timeout', message: 'late' } }, { msgId: `${job.job_id}.failed` });
    await waitFor('reports consumed', async () => (await jsm.streams.info(STREAMS.reports)).state.messages === 0);
    await settle();
    const completed: JobRecordV1 = await rpc.call('get', { version: 1, account_id: ACCOUNT, job_id: job.job_id });
    expect(completed).toMatchObject({ status: 'COMPLETED', result, error: null });
    const { rows } = await db.query('SELECT attempts, media_duration_seconds FROM jobs.job WHERE job_id = $1', [job.job_id]);
    expect(rows[0]).toEqual({ attempts: 1, media_duration_seconds: 42.5 });
    expect(await eventsOf(job.job_id)).toEqual([subjects.jobEvent('created'), subjects.jobEvent('started'), subjects.jobEvent('completed')]);
    // The job's own update subject follows it too, for the gateway's SSE stream.
    const updates = await messagesOf(STREAMS.jobUpdates, job.job_id);
    expect(updates.map((m) => [m.subject, m.payload.event, m.payload.status])).toEqual([
      [subjects.jobUpdate(job.job_id), 'started', 'PROCESSING'],
      [subjects.jobUpdate(job.job_id), 'completed', 'COMPLETED'],
    ]);
  });

  it('lists an account newest first, page by page, with type and status filters', async () => {
    const account = randomUUID();
    const created: JobRecordV1[] = [];
    for (let i = 0; i < 5; i++) {
      const request = i % 2 ? cleanAudio({ account_id: account }) : { ...cleanAudio({ account_id: account }), job_type: 'video-background-removal' as const, options: BACKGROUND_REMOVAL_DEFAULTS };
      created.push((await rpc.call('create', request)).job);
    }
    const newestFirst = created.map((j) => j.job_id).reverse();
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await rpc.call('list', { version: 1, account_id: account, limit: 2, cursor });
      seen.push(...page.jobs.map((j) => j.job_id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(newestFirst);
    const clean = await rpc.call('list', { version: 1, account_id: account, limit: 20, job_type: 'clean-audio-video' });
    expect(clean.jobs.map((j) => j.job_id)).toEqual([created[3].job_id, created[1].job_id]);
    expect(clean.next_cursor).toBeNull();
    await rpc.call('cancel', { version: 1, account_id: account, job_id: created[0].job_id });
    const cancelled = await rpc.call('list', { version: 1, account_id: account, limit: 20, status: 'CANCELLED' });
    expect(cancelled.jobs.map((j) => j.job_id)).toEqual([created[0].job_id]);
    await expect(rpc.call('list', { version: 1, account_id: account, limit: 20, cursor: 'bogus' })).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('fails the job with generation_failed when its work message hits max deliveries unsettled', async () => {
    await jsm.streams.purge(STREAMS.work);
    const workerSpec = { stream: STREAMS.work, durable: CONSUMERS.renderWorker, filterSubject: subjects.workAll(), subjects: [], ackWaitMs: 1_000, maxDeliver: 1, concurrency: 1, backoffMs: [], maxProcessingMs: 1_000 };
    await ensureConsumer(jsm, workerSpec);
    const { job } = await rpc.call('create', cleanAudio());
    await holdPlaced(job);
    const consumer = await nc.jetstream().consumers.get(STREAMS.work, CONSUMERS.renderWorker);
    // A worker takes the job and crashes; the next pull (any worker) makes JetStream give up on it.
    await waitFor('taken', async () => (await consumer.next({ expires: 1_000 }))?.subject === subjects.work('clean-audio-video'));
    await waitFor('dead-lettered', async () => {
      await consumer.next({ expires: 1_000 });
      return (await rpc.call('get', { version: 1, account_id: ACCOUNT, job_id: job.job_id })).status === 'FAILED';
    }, 15_000);
    const failed = await rpc.call('get', { version: 1, account_id: ACCOUNT, job_id: job.job_id });
    expect(failed.error).toEqual({ code: 'generation_failed', message: 'processing never finished: the work was delivered 1 times' });
    await waitFor('failed event', async () => (await eventsOf(job.job_id)).includes(subjects.jobEvent('failed')));
    await consumer.delete();
  });

  it('fails a job billing never funded at its create deadline with timeout, and sends no work', async () => {
    const { job } = await rpc.call('create', cleanAudio({ estimate }));
    await db.query(`UPDATE jobs.job SET deadline_at = now() - interval '1 second' WHERE job_id = $1`, [job.job_id]);
    await waitFor('swept', async () => (await getJob(job.job_id)).status === 'FAILED', 5_000);
    const failed = await getJob(job.job_id);
    expect(failed.error?.code).toBe('timeout');
    expect(await messagesOf(STREAMS.work, job.job_id)).toEqual([]);
  });

  it("moves the deadline to the worker's own on a started report, so the sweeper spares a late-started job", async () => {
    const { job } = await rpc.call('create', cleanAudio());
    // Queued past the create-time deadline; the worker starts it now with its own limits.
    await db.query(`UPDATE jobs.job SET deadline_at = now() + interval '2 seconds' WHERE job_id = $1`, [job.job_id]);
    const deadline_at = new Date(Date.now() + 3600_000).toISOString();
    const base = { version: 1 as const, job_id: job.job_id, account_id: ACCOUNT, job_type: job.job_type };
    await publisher.publish(subjects.report('started'), { ...base, attempt: 1, worker_id: 'w1', deadline_at }, { msgId: `${job.job_id}.started.1` });
    await waitFor('started', async () => (await db.query('SELECT attempts FROM jobs.job WHERE job_id = $1', [job.job_id])).rows[0].attempts === 1);
    const { rows } = await db.query('SELECT deadline_at FROM jobs.job WHERE job_id = $1', [job.job_id]);
    expect((rows[0].deadline_at as Date).toISOString()).toBe(deadline_at);
    // Past the old deadline, several sweeps later: still running.
    await new Promise((r) => setTimeout(r, 3_500));
    expect((await rpc.call('get', { version: 1, account_id: ACCOUNT, job_id: job.job_id })).status).toBe('PROCESSING');
  });

  it('deletes a final job over RPC: conflict while PROCESSING, then not found, and gone from the list', async () => {
    const { job } = await rpc.call('create', cleanAudio());
    await expect(rpc.call('delete', { version: 1, account_id: ACCOUNT, job_id: job.job_id })).rejects.toMatchObject({ code: 'conflict' });
    await rpc.call('cancel', { version: 1, account_id: ACCOUNT, job_id: job.job_id });
    const { deleted_at } = await rpc.call('delete', { version: 1, account_id: ACCOUNT, job_id: job.job_id });
    expect(await rpc.call('delete', { version: 1, account_id: ACCOUNT, job_id: job.job_id })).toEqual({ deleted_at });
    await expect(getJob(job.job_id)).rejects.toMatchObject({ code: 'not_found', message: expect.stringContaining('deleted') });
    const listed = await rpc.call('list', { version: 1, account_id: ACCOUNT, limit: 100 });
    expect(listed.jobs.map((j) => j.job_id)).not.toContain(job.job_id);
    await expect(rpc.call('delete', { version: 1, account_id: OTHER_ACCOUNT, job_id: randomUUID() })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('answers health pings as ready', async () => {
    expect(await pingHealth(nc, 'jobs')).toMatchObject({ service: 'jobs', ready: true });
  });
});
