import { createDatabase } from '@vj/local-stack';
import { runWithLogContext } from '@vj/observability';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { JobEntity } from '../database/job.entity';
import { createJobsDataSource } from '../database/jobs-data-source';
import { runJobsMigrations } from '../database/run-jobs-migrations';
import { IdempotencyKeyTakenError, ProcessingCapReachedError } from './job-store';
import { TypeormJobStore } from './typeorm-job-store';

describe('TypeormJobStore', () => {
  let dataSource: DataSource;
  let store: TypeormJobStore;

  beforeAll(async () => {
    dataSource = await createJobsDataSource(await createDatabase(process.env.TEST_DATABASE_ADMIN_URL!, 'jobs_store_find')).initialize();
    await runJobsMigrations(dataSource);
    store = new TypeormJobStore(dataSource);
  });

  afterAll(() => dataSource?.destroy());

  // node-postgres's pool under TypeORM: every statement the store sends outside a transaction.
  const pool = () => (dataSource.driver as unknown as { master: { connect: () => Promise<unknown> } }).master;

  const processingJob = (accountId: string, createdAt = new Date()) =>
    Object.assign(new JobEntity(), {
      job_id: randomUUID(),
      account_id: accountId,
      job_type: 'clean-audio-video',
      status: 'PROCESSING',
      input: { kind: 'url', url: 'https://media.example.com/a.mp4' },
      options: { strength: 0.8, normalize_loudness: true, target_lufs: -16 },
      result: null,
      error: null,
      credits_estimated: null,
      estimate: null,
      credits_charged: null,
      media_duration_seconds: null,
      attempts: 0,
      failed_attempts: 0,
      created_at: createdAt,
      updated_at: createdAt,
      finished_at: null,
      deadline_at: new Date(createdAt.getTime() + 3_600_000),
      funded_at: null,
      deleted_at: null,
      files_purged_at: null,
      input_purged_at: null,
    });

  it("reads a job with every column set exactly as TypeORM's own lookup does", async () => {
    const at = (ms: number) => new Date(Date.UTC(2026, 10, 24, 6, 0, 0, ms));
    const job = Object.assign(new JobEntity(), {
      job_id: randomUUID(),
      account_id: randomUUID(),
      job_type: 'clean-audio-video',
      status: 'COMPLETED',
      input: { kind: 'upload', upload_id: randomUUID(), object_key: 'uploads/a/b', etag: '"abc"', size: 1234 },
      options: { strength: 0.8, normalize_loudness: true, target_lufs: -16 },
      result: { job_type: 'clean-audio-video', video: { object_key: 'results/x.mp4', file_name: 'x.mp4', content_type: 'video/mp4', file_size: 99 } },
      error: null,
      credits_estimated: 4,
      estimate: { duration_seconds: 2.5, basis: 'probed_duration', price_version: 2 },
      credits_charged: 3,
      media_duration_seconds: 2.48,
      attempts: 1,
      failed_attempts: 0,
      created_at: at(1),
      updated_at: at(2),
      finished_at: at(3),
      deadline_at: at(4),
      funded_at: at(5),
      deleted_at: null,
      files_purged_at: null,
      input_purged_at: at(6),
    });
    await dataSource.manager.insert(JobEntity, job);
    const found = await store.findJob(job.job_id);
    expect(found).toBeInstanceOf(JobEntity);
    expect(found).toEqual(await dataSource.manager.findOneBy(JobEntity, { job_id: job.job_id }));
    expect(found).toEqual(job);
    expect(await store.findJob(randomUUID())).toBeNull();
  });

  it('answers reads asked for in the same turn with one statement, each with its own job', async () => {
    const jobs = [processingJob(randomUUID()), processingJob(randomUUID())];
    await dataSource.manager.insert(JobEntity, jobs);
    // A prepared statement takes a connection of its own from the pool: one connection, one statement.
    const query = jest.spyOn(pool(), 'connect');
    try {
      const [first, second, again, missing, upperCase, notAUuid] = await Promise.all([
        store.findJob(jobs[0]!.job_id),
        store.findJob(jobs[1]!.job_id),
        store.findJob(jobs[0]!.job_id),
        store.findJob(randomUUID()),
        store.findJob(jobs[1]!.job_id.toUpperCase()),
        store.findJob('not-a-uuid'),
      ]);
      expect(query).toHaveBeenCalledTimes(1);
      expect([first?.job_id, second?.job_id, again?.job_id, missing, upperCase?.job_id, notAUuid]).toEqual([jobs[0]!.job_id, jobs[1]!.job_id, jobs[0]!.job_id, null, jobs[1]!.job_id, null]);
      expect(first).toEqual(await dataSource.manager.findOneBy(JobEntity, { job_id: jobs[0]!.job_id }));
    } finally {
      query.mockRestore();
    }
  });

  it('fails every read of a batch whose statement fails, and answers the next batch afresh', async () => {
    const job = processingJob(randomUUID());
    await dataSource.manager.insert(JobEntity, job);
    const query = jest.spyOn(pool(), 'connect').mockRejectedValueOnce(new Error('connection terminated'));
    try {
      const reads = await Promise.allSettled([store.findJob(job.job_id), store.findJob(randomUUID())]);
      expect(reads.map((read) => read.status)).toEqual(['rejected', 'rejected']);
      expect((await store.findJob(job.job_id))?.job_id).toBe(job.job_id);
    } finally {
      query.mockRestore();
    }
  });

  describe('insertJob', () => {
    const key = (jobKey: string, expiredBefore: Date) => ({ key: jobKey, requestHash: 'hash', expiredBefore });

    it('refuses a live Idempotency-Key and takes over an expired one, writing nothing for the refused job', async () => {
      const accountId = randomUUID();
      const first = processingJob(accountId, new Date('2026-11-01T00:00:00Z'));
      await store.insertJob({ job: first, outbox: [] }, key('k1', new Date('2026-10-31T00:00:00Z')), undefined);
      const refused = processingJob(accountId);
      await expect(store.insertJob({ job: refused, outbox: [] }, key('k1', new Date('2026-10-31T00:00:00Z')), undefined)).rejects.toBeInstanceOf(IdempotencyKeyTakenError);
      expect(await store.findJob(refused.job_id)).toBeNull();
      const later = processingJob(accountId);
      await store.insertJob({ job: later, outbox: [] }, key('k1', new Date('2026-11-02T00:00:00Z')), undefined);
      expect(await store.findIdempotencyKey(accountId, 'k1', new Date(0))).toMatchObject({ job_id: later.job_id });
    });

    it("counts the new job against the account's cap on PROCESSING jobs, and rolls it back past the cap", async () => {
      const accountId = randomUUID();
      for (let i = 0; i < 2; i++) await store.insertJob({ job: processingJob(accountId), outbox: [] }, null, 2);
      const third = processingJob(accountId);
      await expect(store.insertJob({ job: third, outbox: [] }, null, 2)).rejects.toBeInstanceOf(ProcessingCapReachedError);
      expect(await store.findJob(third.job_id)).toBeNull();
    });

    it('never lets concurrent creates of one account pass the cap together', async () => {
      const accountId = randomUUID();
      // All eight under way at once: each waits at its outbox row, after its job's insert, until the table is let go.
      const blocker = dataSource.createQueryRunner();
      await blocker.startTransaction();
      await blocker.query('LOCK TABLE jobs.outbox IN EXCLUSIVE MODE');
      const draft = { subject: 'vj.test.created', msgId: 'created', payload: {} };
      const creates = Array.from({ length: 8 }, () => store.insertJob({ job: processingJob(accountId), outbox: [draft] }, null, 3));
      await new Promise((resolve) => setTimeout(resolve, 300));
      await blocker.commitTransaction();
      await blocker.release();
      const outcomes = await Promise.allSettled(creates);
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(3);
      expect(outcomes.filter((outcome) => outcome.status === 'rejected' && outcome.reason instanceof ProcessingCapReachedError)).toHaveLength(5);
    });

    it('updates a locked job whole and writes its messages in the order listed, or leaves it as it was', async () => {
      const job = processingJob(randomUUID());
      await store.insertJob({ job, outbox: [] }, null, undefined);
      const finished = Object.assign(new JobEntity(), job, { status: 'COMPLETED', attempts: 1, result: { files: [] }, media_duration_seconds: 1.5, finished_at: new Date() });
      const drafts = ['work', 'event'].map((name) => ({ subject: `vj.test.${name}`, msgId: `${job.job_id}:${name}`, payload: { name } }));
      expect(await store.updateJob(job.job_id, (locked) => ({ value: locked?.status, write: { job: finished, outbox: drafts } }))).toBe('PROCESSING');
      expect(await store.findJob(job.job_id)).toEqual(finished);
      const rows = await dataSource.query(`SELECT subject FROM jobs.outbox WHERE msg_id LIKE $1 ORDER BY position`, [`${job.job_id}:%`]);
      expect(rows.map((row: { subject: string }) => row.subject)).toEqual(['vj.test.work', 'vj.test.event']);
      expect(await store.updateJob(job.job_id, (locked) => ({ value: locked?.status }))).toBe('COMPLETED');
      expect(await store.updateJob(randomUUID(), (locked) => ({ value: locked }))).toBeNull();
    });

    it('decides again on the newest row when another statement changed the job after it was read, and never overwrites that change', async () => {
      const job = processingJob(randomUUID());
      await store.insertJob({ job, outbox: [] }, null, undefined);
      const purgedAt = new Date(Date.UTC(2026, 10, 28, 4, 0, 0));
      // The retention sweeper's own statement, not committed yet: the update reads the job as it was
      // and its write waits on the sweeper's row lock.
      const sweeper = dataSource.createQueryRunner();
      await sweeper.startTransaction();
      await sweeper.query(`UPDATE jobs.job SET input_purged_at = $2 WHERE job_id = $1`, [job.job_id, purgedAt]);
      const seen: (Date | null)[] = [];
      const update = store.updateJob(job.job_id, (read) => {
        seen.push(read!.input_purged_at);
        const finished = Object.assign(new JobEntity(), read, { status: 'COMPLETED', finished_at: new Date() });
        return { value: seen.length, write: { job: finished, outbox: [{ subject: 'vj.test.completed', msgId: `${job.job_id}:completed`, payload: {} }] } };
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await sweeper.commitTransaction();
      await sweeper.release();
      const outcome = await update;
      expect(outcome).toBe(2);
      expect(seen).toEqual([null, purgedAt]);
      expect(await store.findJob(job.job_id)).toMatchObject({ status: 'COMPLETED', input_purged_at: purgedAt });
      // The refused write left no message behind: one row, from the second decision.
      expect(await dataSource.query(`SELECT subject FROM jobs.outbox WHERE msg_id = $1`, [`${job.job_id}:completed`])).toEqual([{ subject: 'vj.test.completed' }]);
    });

    it('applies concurrent changes of one job one after the other, none lost', async () => {
      const job = processingJob(randomUUID());
      await store.insertJob({ job, outbox: [] }, null, undefined);
      const bump = () => store.updateJob(job.job_id, (read) => ({ value: undefined, write: { job: Object.assign(new JobEntity(), read, { attempts: read!.attempts + 1 }), outbox: [] } }));
      await Promise.all(Array.from({ length: 10 }, bump));
      expect((await store.findJob(job.job_id))!.attempts).toBe(job.attempts + 10);
    });

    it('writes every column as given and the outbox rows in the order listed, with the writer context', async () => {
      const job = processingJob(randomUUID());
      Object.assign(job, { credits_estimated: 12, estimate: { duration_seconds: 9.5, basis: 'probed', price_version: 3 } });
      const drafts = ['first', 'second', 'third'].map((name) => ({ subject: `vj.test.${name}`, msgId: `${job.job_id}:${name}`, payload: { name, nested: [1, null] } }));
      await runWithLogContext({ request_id: 'req-outbox' }, () => store.insertJob({ job, outbox: drafts }, null, undefined));
      expect(await store.findJob(job.job_id)).toEqual(job);
      const rows = await dataSource.query(`SELECT subject, msg_id, payload, context, created_at FROM jobs.outbox WHERE msg_id LIKE $1 ORDER BY position`, [`${job.job_id}:%`]);
      expect(rows).toEqual(drafts.map((draft) => ({ subject: draft.subject, msg_id: draft.msgId, payload: draft.payload, context: expect.objectContaining({ 'x-request-id': 'req-outbox' }), created_at: job.updated_at })));
    });
  });
});
