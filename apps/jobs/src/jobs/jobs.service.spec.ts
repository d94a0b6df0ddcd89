import { CLEAN_AUDIO_DEFAULTS, subjects, type CreateJobRequestV1, type CreditEstimateV1, type StoredResultV1 } from '@vj/contracts';
import { InMemoryJobStore } from '../../test/in-memory-job-store';
import { workerDeadline } from '../domain/job-deadline';
import { IDEMPOTENCY_KEY_TTL_MS, JobsService } from './jobs.service';

const ACCOUNT = '0b6f7d7e-1c1a-4c55-9d0e-2b7b8a7f0001';
const request = (overrides: Partial<CreateJobRequestV1> = {}): CreateJobRequestV1 => ({
  version: 1,
  account_id: ACCOUNT,
  job_type: 'clean-audio-video',
  input: { kind: 'url', url: 'https://example.com/a.mp4' },
  options: CLEAN_AUDIO_DEFAULTS,
  ...overrides,
});
const estimate: CreditEstimateV1 = { credits_estimated: 12, duration_seconds: 61.2, basis: 'probed_duration', price_version: 3 };
const result: StoredResultV1 = { job_type: 'clean-audio-video', video: { object_key: 'k', content_type: 'video/mp4', file_name: 'a.mp4', file_size: 1 } };

describe('JobsService', () => {
  let store: InMemoryJobStore;
  let now: Date;
  let service: JobsService;

  beforeEach(() => {
    store = new InMemoryJobStore();
    now = new Date('2025-01-01T00:00:00.000Z');
    service = new JobsService(store, { queueTimeoutSeconds: 3600, now: () => now });
  });

  it('writes only the created event with the job, carrying its estimate, and sets the deadline from the type limit', async () => {
    const { job } = await service.create(request({ estimate }));
    expect(job.credits_estimated).toBe(12);
    expect(store.outbox.map((m) => [m.subject, m.msgId])).toEqual([[subjects.jobEvent('created'), `${job.job_id}.created`]]);
    expect(store.outbox[0].payload).toMatchObject({ job_id: job.job_id, options: CLEAN_AUDIO_DEFAULTS, estimate });
    expect(store.jobs.get(job.job_id)).toMatchObject({
      credits_estimated: 12,
      estimate: { duration_seconds: 61.2, basis: 'probed_duration', price_version: 3 },
      funded_at: null,
      deadline_at: new Date('2025-01-01T01:00:00.000Z'),
    });
  });

  it('leaves the estimate off the created event of a job created without one', async () => {
    const { job } = await service.create(request());
    expect(job.credits_estimated).toBeNull();
    expect(store.outbox[0].payload).not.toHaveProperty('estimate');
  });

  it("carries the create's webhook_url in the created event only, and refuses one that is not an http(s) URL", async () => {
    const { job } = await service.create(request({ webhook_url: 'https://hooks.example.com/job' }));
    expect(store.outbox[0].payload).toMatchObject({ job_id: job.job_id, webhook_url: 'https://hooks.example.com/job' });
    expect(job).not.toHaveProperty('webhook_url');
    await expect(service.create(request({ webhook_url: 'file:///etc/passwd' }))).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(service.create(request({ webhook_url: `https://a.example/${'x'.repeat(2048)}` }))).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('refuses an estimate that is not a whole, non-negative number of credits', async () => {
    await expect(service.create(request({ estimate: { ...estimate, credits_estimated: 1.5 } }))).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(service.create(request({ estimate: { ...estimate, credits_estimated: -1 } }))).rejects.toMatchObject({ code: 'invalid_request' });
    expect(store.jobs.size).toBe(0);
  });

  it("refuses a create past the account's cap on PROCESSING jobs with rate_limited, and counts only that account's live jobs", async () => {
    const { job } = await service.create(request({ max_processing_jobs: 2 }));
    await service.create(request({ max_processing_jobs: 2 }));
    await expect(service.create(request({ max_processing_jobs: 2 }))).rejects.toMatchObject({ code: 'rate_limited' });
    await service.create(request({ account_id: '0b6f7d7e-1c1a-4c55-9d0e-2b7b8a7f0002', max_processing_jobs: 2 }));
    await service.cancel({ version: 1, account_id: ACCOUNT, job_id: job.job_id });
    await expect(service.create(request({ max_processing_jobs: 2 }))).resolves.toMatchObject({ replayed: false });
    await expect(service.create(request({ max_processing_jobs: 0 }))).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it("answers a create whose Idempotency-Key's first create took the last place with that job, not rate_limited", async () => {
    const idempotency = { key: 'k', request_hash: 'h' };
    const { job } = await service.create(request({ max_processing_jobs: 1, idempotency }));
    await expect(service.create(request({ max_processing_jobs: 1, idempotency }))).resolves.toEqual({ job: expect.objectContaining({ job_id: job.job_id }), replayed: true });
  });

  it('looks a key up only when the insert finds it held', async () => {
    const lookups = jest.spyOn(store, 'findIdempotencyKey');
    const idempotency = { key: 'once', request_hash: 'h' };
    const { job } = await service.create(request({ idempotency }));
    expect(lookups).not.toHaveBeenCalled();
    await expect(service.create(request({ idempotency }))).resolves.toEqual({ job: expect.objectContaining({ job_id: job.job_id }), replayed: true });
    expect(lookups).toHaveBeenCalledTimes(1);
  });

  it('answers an Idempotency-Key replay of a deleted job with not_found', async () => {
    const idempotency = { key: 'gone', request_hash: 'h' };
    const { job } = await service.create(request({ idempotency }));
    await service.cancel({ version: 1, account_id: ACCOUNT, job_id: job.job_id });
    await service.markDeleted({ version: 1, account_id: ACCOUNT, job_id: job.job_id });
    await expect(service.create(request({ idempotency }))).rejects.toMatchObject({ code: 'not_found' });
  });

  it('writes the work message once when billing funds the job, however often hold_placed arrives', async () => {
    const { job } = await service.create(request({ estimate }));
    now = new Date(now.getTime() + 1_000);
    expect(await service.applyCommand(job.job_id, { kind: 'fund' })).toBe('applied');
    expect(await service.applyCommand(job.job_id, { kind: 'fund' })).toBe('ignored');
    expect(store.outbox.map((m) => m.subject)).toEqual([subjects.jobEvent('created'), subjects.work('clean-audio-video')]);
    expect(store.outbox[1]).toMatchObject({ msgId: job.job_id, payload: { job_id: job.job_id, requested_at: '2025-01-01T00:00:00.000Z' } });
    expect(store.jobs.get(job.job_id)).toMatchObject({ status: 'PROCESSING', funded_at: now });
  });

  it('never sends the work of a job cancelled before billing funded it, nor of an unknown job', async () => {
    const { job } = await service.create(request({ estimate }));
    await service.cancel({ version: 1, account_id: ACCOUNT, job_id: job.job_id });
    const written = store.outbox.length;
    expect(await service.applyCommand(job.job_id, { kind: 'fund' })).toBe('ignored');
    expect(await service.applyCommand('3f1d1b1e-0000-4000-8000-000000000000', { kind: 'fund' })).toBe('ignored');
    expect(store.outbox.length).toBe(written);
    expect(store.jobs.get(job.job_id)?.funded_at).toBeNull();
  });

  it('records the charge of a completed job once, without a job event', async () => {
    const { job } = await service.create(request({ estimate }));
    await service.applyCommand(job.job_id, { kind: 'fund' });
    await service.applyCommand(job.job_id, { kind: 'succeed', result, mediaDurationSeconds: 60 });
    const written = store.outbox.length;
    expect(await service.applyCommand(job.job_id, { kind: 'charge', credits: 11 })).toBe('applied');
    expect(await service.applyCommand(job.job_id, { kind: 'charge', credits: 11 })).toBe('ignored');
    expect(await service.applyCommand('3f1d1b1e-0000-4000-8000-000000000000', { kind: 'charge', credits: 11 })).toBe('ignored');
    expect(store.outbox.length).toBe(written);
    expect(await service.get({ version: 1, account_id: ACCOUNT, job_id: job.job_id })).toMatchObject({ status: 'COMPLETED', credits_estimated: 12, credits_charged: 11 });
  });

  it('replays the same key and body, refuses another body, and treats a key older than 24 h as absent', async () => {
    const idempotency = { key: 'k', request_hash: 'h1' };
    const first = await service.create(request({ idempotency }));
    expect(await service.create(request({ idempotency }))).toEqual({ job: first.job, replayed: true });
    await expect(service.create(request({ idempotency: { key: 'k', request_hash: 'h2' } }))).rejects.toMatchObject({ code: 'conflict' });
    now = new Date(now.getTime() + IDEMPOTENCY_KEY_TTL_MS + 1);
    const later = await service.create(request({ idempotency: { key: 'k', request_hash: 'h2' } }));
    expect(later.replayed).toBe(false);
    expect(later.job.job_id).not.toBe(first.job.job_id);
  });

  it('cancels with a cancelled event, then answers conflict without writing anything', async () => {
    const { job } = await service.create(request());
    expect((await service.cancel({ version: 1, account_id: ACCOUNT, job_id: job.job_id })).status).toBe('CANCELLED');
    const written = store.outbox.length;
    await expect(service.cancel({ version: 1, account_id: ACCOUNT, job_id: job.job_id })).rejects.toMatchObject({ code: 'conflict' });
    expect(store.outbox.length).toBe(written);
    expect(store.outbox.slice(-2).map((m) => [m.subject, m.msgId])).toEqual([
      [subjects.jobEvent('cancelled'), `${job.job_id}.cancelled`],
      [subjects.jobUpdate(job.job_id), `${job.job_id}.cancelled.update`],
    ]);
  });

  it('announces the first start with a started event and update, and no retry\'s start', async () => {
    const { job } = await service.create(request());
    await service.applyCommand(job.job_id, { kind: 'fund' });
    await service.applyCommand(job.job_id, { kind: 'start', attempt: 1 });
    await service.applyCommand(job.job_id, { kind: 'start', attempt: 2 });
    expect(store.outbox.map((m) => m.subject)).toEqual([
      subjects.jobEvent('created'),
      subjects.work('clean-audio-video'),
      subjects.jobEvent('started'),
      subjects.jobUpdate(job.job_id),
    ]);
    expect(store.outbox[2].payload).toMatchObject({ job_id: job.job_id, attempt: 1 });
    expect(store.outbox[3].payload).toMatchObject({ version: 1, job_id: job.job_id, kind: 'state', event: 'started', status: 'PROCESSING' });
  });

  it('ignores a report for an unknown job or a final one without writing an event', async () => {
    const { job } = await service.create(request());
    await service.failJob(job.job_id, { code: 'invalid_file', message: 'no audio' });
    const written = store.outbox.length;
    expect(await service.failJob(job.job_id, { code: 'timeout', message: 'late' })).toBe('ignored');
    expect(await service.failJob('3f1d1b1e-0000-4000-8000-000000000000', { code: 'timeout', message: 'x' })).toBe('ignored');
    expect(store.outbox.length).toBe(written);
    expect(store.jobs.get(job.job_id)?.error?.code).toBe('invalid_file');
  });

  it('fails only jobs whose deadline passed more than the grace ago, with timeout', async () => {
    const { job } = await service.create(request());
    now = new Date(now.getTime() + 3600_000 + 30_000);
    expect(await service.failJobsPastDeadline(60_000)).toBe(0);
    now = new Date(now.getTime() + 31_000);
    expect(await service.failJobsPastDeadline(60_000)).toBe(1);
    expect(store.jobs.get(job.job_id)).toMatchObject({ status: 'FAILED', error: { code: 'timeout' } });
  });

  it('times out a job billing never funded at its create deadline, and sends no work for a late hold_placed', async () => {
    const { job } = await service.create(request({ estimate }));
    now = new Date(now.getTime() + 3600_000 + 61_000);
    expect(await service.failJobsPastDeadline(60_000)).toBe(1);
    expect(await service.applyCommand(job.job_id, { kind: 'fund' })).toBe('ignored');
    expect(store.outbox.map((m) => m.subject)).toEqual([subjects.jobEvent('created'), subjects.jobEvent('failed'), subjects.jobUpdate(job.job_id)]);
  });

  it("takes the worker's deadline from a started report, so a job that queued past its create deadline is not swept", async () => {
    const { job } = await service.create(request());
    // The job queued for 59 minutes; the worker starts it now and needs up to 75 more.
    now = new Date(now.getTime() + 59 * 60_000);
    const workerDeadlineAt = new Date(now.getTime() + 75 * 60_000);
    const report = { deadline_at: workerDeadlineAt.toISOString() };
    expect(await service.applyCommand(job.job_id, { kind: 'start', attempt: 1, deadlineAt: workerDeadline(report) })).toBe('applied');
    expect(store.jobs.get(job.job_id)?.deadline_at).toEqual(workerDeadlineAt);
    now = new Date(now.getTime() + 30 * 60_000);
    expect(await service.failJobsPastDeadline(60_000)).toBe(0);
    expect(store.jobs.get(job.job_id)?.status).toBe('PROCESSING');
    now = new Date(workerDeadlineAt.getTime() + 61_000);
    expect(await service.failJobsPastDeadline(60_000)).toBe(1);
    expect(store.jobs.get(job.job_id)).toMatchObject({ status: 'FAILED', error: { code: 'timeout' } });
  });

  it('keeps the create deadline when a started report carries none (older worker) or an unreadable one', async () => {
    const { job } = await service.create(request());
    expect(await service.applyCommand(job.job_id, { kind: 'start', attempt: 1, deadlineAt: workerDeadline({}) })).toBe('applied');
    expect(await service.applyCommand(job.job_id, { kind: 'start', attempt: 2, deadlineAt: workerDeadline({ deadline_at: 'soon' }) })).toBe('applied');
    expect(store.jobs.get(job.job_id)).toMatchObject({ attempts: 2, deadline_at: new Date('2025-01-01T01:00:00.000Z') });
  });
});
