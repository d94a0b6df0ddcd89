import { createDatabase } from '@vj/local-stack';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { JobEntity } from '../database/job.entity';
import { createJobsDataSource } from '../database/jobs-data-source';
import { runJobsMigrations } from '../database/run-jobs-migrations';
import { TypeormJobStore } from './typeorm-job-store';

describe('TypeormJobStore.findJob', () => {
  let dataSource: DataSource;
  let store: TypeormJobStore;

  beforeAll(async () => {
    dataSource = await createJobsDataSource(await createDatabase(process.env.TEST_DATABASE_ADMIN_URL!, 'jobs_store_find')).initialize();
    await runJobsMigrations(dataSource);
    store = new TypeormJobStore(dataSource);
  });

  afterAll(() => dataSource?.destroy());

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
});
