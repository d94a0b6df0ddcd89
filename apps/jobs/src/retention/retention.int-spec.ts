import { BACKGROUND_REMOVAL_DEFAULTS, CLEAN_AUDIO_DEFAULTS, piecePrefix, uploadObjectKey, uploadVideoUrl, type CreateJobRequestV1, type StoredResultV1 } from '@vj/contracts';
import { createDatabase, startS3Server, type LocalS3Server } from '@vj/local-stack';
import { ObjectStorage } from '@vj/storage';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { createJobsDataSource } from '../database/jobs-data-source';
import { runJobsMigrations } from '../database/run-jobs-migrations';
import { JobsService } from '../jobs/jobs.service';
import { TypeormJobStore } from '../jobs/typeorm-job-store';
import { DeleteJobUseCase } from './delete-job.use-case';
import { JobFilesPurger } from './job-files-purger';
import { RetentionStore } from './retention-store';
import { RetentionSweeper } from './retention-sweeper';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('retention: deleted jobs, expired results, inputs of ended jobs, old uploads', () => {
  let s3: LocalS3Server;
  let storage: ObjectStorage;
  let dataSource: DataSource;
  let jobs: JobsService;
  let purger: JobFilesPurger;
  let store: RetentionStore;
  let dir: string;
  const account = randomUUID();

  beforeAll(async () => {
    s3 = await startS3Server();
    storage = new ObjectStorage({ endpoint: s3.endpoint, accessKey: s3.accessKey, secretKey: s3.secretKey, bucket: 'retention', region: 'us-east-1' });
    await storage.ensureBucket();
    dataSource = await createJobsDataSource(await createDatabase(process.env.TEST_DATABASE_ADMIN_URL!, 'jobs_retention')).initialize();
    await runJobsMigrations(dataSource);
    jobs = new JobsService(new TypeormJobStore(dataSource), { queueTimeoutSeconds: 3600 });
    store = new RetentionStore(dataSource);
    purger = new JobFilesPurger(store, storage);
    dir = mkdtempSync(join(tmpdir(), 'vj-retention-'));
    writeFileSync(join(dir, 'bytes'), 'bytes');
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await s3?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  // A sweeper whose clock is `aheadMs` in the future.
  const sweepAt = (aheadMs: number) =>
    new RetentionSweeper(store, purger, storage, { intervalMs: 60_000, resultRetentionMs: 7 * DAY, uploadRetentionMs: 24 * HOUR }, () => new Date(Date.now() + aheadMs)).sweep();
  const put = (key: string) => storage.putFile(key, join(dir, 'bytes'), 'video/mp4');
  const exists = async (key: string) => (await storage.stat(key)) !== null;

  async function uploadJob(uploadId = randomUUID()) {
    const key = uploadObjectKey(account, uploadId);
    if (!(await exists(key))) await put(key);
    const request: CreateJobRequestV1 = { version: 1, account_id: account, job_type: 'clean-audio-video', input: { kind: 'upload', upload_id: uploadId, object_key: key }, options: CLEAN_AUDIO_DEFAULTS };
    return { key, uploadId, job: (await jobs.create(request)).job };
  }

  async function complete(jobId: string): Promise<string> {
    const resultKey = `results/${account}/${jobId}/1/${jobId}-clean.mp4`;
    await put(resultKey);
    // What a losing attempt left beside the winner's: deleted with the job's files.
    await put(`results/${account}/${jobId}/2/${jobId}-clean.mp4`);
    const result: StoredResultV1 = { job_type: 'clean-audio-video', video: { object_key: resultKey, content_type: 'video/mp4', file_name: 'x.mp4', file_size: 5 } };
    await jobs.applyCommand(jobId, { kind: 'succeed', result, mediaDurationSeconds: 2 });
    return resultKey;
  }

  it("DELETE removes a completed job's result files and its upload at once; the job then reads as not found", async () => {
    const { key, job } = await uploadJob();
    const resultKey = await complete(job.job_id);
    const reply = await new DeleteJobUseCase(jobs, purger).execute({ version: 1, account_id: account, job_id: job.job_id });
    expect(reply.deleted_at).toEqual(expect.any(String));
    expect(await exists(resultKey)).toBe(false);
    expect(await exists(`results/${account}/${job.job_id}/2/${job.job_id}-clean.mp4`)).toBe(false);
    expect(await exists(key)).toBe(false);
    await expect(jobs.get({ version: 1, account_id: account, job_id: job.job_id })).rejects.toMatchObject({ code: 'not_found' });
  });

  it("deletes an ended job's upload on the next sweep, unless a job still PROCESSING reads it; the last one to end deletes it", async () => {
    const first = await uploadJob();
    const second = await uploadJob(first.uploadId);
    await jobs.applyCommand(first.job.job_id, { kind: 'fail', error: { code: 'invalid_file', message: 'x' } });
    await sweepAt(0);
    expect(await exists(first.key)).toBe(true);
    await complete(second.job.job_id);
    await sweepAt(0);
    expect(await exists(first.key)).toBe(false);
    // Its result stays: it is not past retention.
    await expect(jobs.get({ version: 1, account_id: account, job_id: second.job.job_id })).resolves.toMatchObject({ status: 'COMPLETED' });
  });

  it('marks an ended URL job whose input was never marked, so it never blocks the queue of inputs to delete', async () => {
    const { job } = await jobs.create({ version: 1, account_id: account, job_type: 'clean-audio-video', input: { kind: 'url', url: 'https://example.com/a.mp4' }, options: CLEAN_AUDIO_DEFAULTS });
    await jobs.applyCommand(job.job_id, { kind: 'cancel' });
    await dataSource.query('UPDATE jobs.job SET input_purged_at = NULL WHERE job_id = $1', [job.job_id]);
    await sweepAt(0);
    const [row] = await dataSource.query('SELECT input_purged_at FROM jobs.job WHERE job_id = $1', [job.job_id]);
    expect(row.input_purged_at).not.toBeNull();
  });

  it("deletes a long background removal's pieces once it ended before its join, on the next sweep, whatever its input", async () => {
    const { job } = await jobs.create({ version: 1, account_id: account, job_type: 'video-background-removal', input: { kind: 'url', url: 'https://example.com/talk.mp4' }, options: BACKGROUND_REMOVAL_DEFAULTS });
    const pieces = piecePrefix(account, job.job_id);
    for (const key of [`${pieces}input`, `${pieces}plate-1`, `${pieces}0/transparent.webm`]) await put(key);
    await sweepAt(0);
    expect(await exists(`${pieces}input`)).toBe(true);
    await jobs.applyCommand(job.job_id, { kind: 'cancel' });
    await sweepAt(0);
    expect(await Promise.all([`${pieces}input`, `${pieces}plate-1`, `${pieces}0/transparent.webm`].map(exists))).toEqual([false, false, false]);
    const [row] = await dataSource.query('SELECT input_purged_at FROM jobs.job WHERE job_id = $1', [job.job_id]);
    expect(row.input_purged_at).not.toBeNull();
  });

  it('deletes result files RESULT_RETENTION_DAYS after completion, and the job then reads as not found, saying so', async () => {
    const { job } = await uploadJob();
    const resultKey = await complete(job.job_id);
    await sweepAt(6 * DAY);
    expect(await exists(resultKey)).toBe(true);
    await sweepAt(7 * DAY + HOUR);
    expect(await exists(resultKey)).toBe(false);
    await expect(jobs.get({ version: 1, account_id: account, job_id: job.job_id })).rejects.toMatchObject({ code: 'not_found', message: expect.stringContaining('expired') });
    const listed = await jobs.list({ version: 1, account_id: account, limit: 100 });
    expect(listed.jobs.map((j) => j.job_id)).not.toContain(job.job_id);
  });

  it('deletes uploads no job reads UPLOAD_RETENTION_HOURS after their PUT, and keeps those a PROCESSING job reads', async () => {
    const unused = uploadObjectKey(account, randomUUID());
    await put(unused);
    const { key: inUse } = await uploadJob();
    await sweepAt(23 * HOUR);
    expect(await exists(unused)).toBe(true);
    await sweepAt(25 * HOUR);
    expect(await exists(unused)).toBe(false);
    expect(await exists(inUse)).toBe(true);
  });

  it("keeps an old image upload a PROCESSING job puts behind its person, and lets it go once the job ended, leaving the job's input to its own rule", async () => {
    const imageId = randomUUID();
    const image = uploadObjectKey(account, imageId);
    await put(image);
    const input = uploadObjectKey(account, randomUUID());
    await put(input);
    const options = { output_codec: 'h264' as const, refine_foreground_edges: true, subject_is_person: true, background: { image_url: uploadVideoUrl(imageId) } };
    const request: CreateJobRequestV1 = { version: 1, account_id: account, job_type: 'video-background-removal', input: { kind: 'upload', upload_id: 'x', object_key: input }, options };
    const { job } = await jobs.create(request);
    await sweepAt(25 * HOUR);
    expect(await exists(image)).toBe(true);
    await jobs.applyCommand(job.job_id, { kind: 'fail', error: { code: 'generation_failed', message: 'test' } });
    await sweepAt(25 * HOUR);
    expect(await exists(image)).toBe(false);
  });
});
