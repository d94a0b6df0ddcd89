import { uploadVideoUrl } from '@vj/contracts';
import { IsNull, LessThan, Not, type DataSource } from 'typeorm';
import { JobEntity } from '../database/job.entity';

// The retention sweeper's queries and marks, beside the job store: what is due, and what was done.
export class RetentionStore {
  constructor(private readonly dataSource: DataSource) {}

  // Completed jobs whose files are past retention (the partial index IDX_job_results_to_expire).
  findExpiredResults(completedBefore: Date, limit: number): Promise<JobEntity[]> {
    return this.dataSource.manager.find(JobEntity, {
      where: { status: 'COMPLETED', files_purged_at: IsNull(), finished_at: LessThan(completedBefore) },
      order: { finished_at: 'ASC' },
      take: limit,
    });
  }

  // Deleted jobs whose files are still there (DELETE could not reach the bucket).
  findDeletedWithFiles(limit: number): Promise<JobEntity[]> {
    return this.dataSource.manager.find(JobEntity, { where: { deleted_at: Not(IsNull()), files_purged_at: IsNull() }, take: limit });
  }

  // Ended jobs whose uploaded input may still be in the bucket.
  findInputsToPurge(limit: number): Promise<JobEntity[]> {
    return this.dataSource.manager.find(JobEntity, {
      where: { status: Not('PROCESSING'), input_purged_at: IsNull(), finished_at: Not(IsNull()) },
      order: { finished_at: 'ASC' },
      take: limit,
    });
  }

  // Whether a job still PROCESSING reads this upload (the object key names the account): as its input,
  // or as its background image (decision 0091).
  async uploadInUse(accountId: string, objectKey: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM "jobs"."job" WHERE "account_id" = $1 AND "status" = 'PROCESSING'
         AND ("input"->>'object_key' = $2 OR "options"->'background'->>'image_url' = $3) LIMIT 1`,
      [accountId, objectKey, uploadVideoUrl(objectKey.slice(objectKey.lastIndexOf('/') + 1))],
    );
    return rows.length > 0;
  }

  async markInputDone(jobId: string, at: Date): Promise<void> {
    await this.dataSource.manager.update(JobEntity, { job_id: jobId, input_purged_at: IsNull() }, { input_purged_at: at });
  }

  async markFilesPurged(jobId: string, at: Date): Promise<void> {
    await this.dataSource.manager.update(JobEntity, { job_id: jobId, files_purged_at: IsNull() }, { files_purged_at: at });
  }

  // Every ended job that read this upload is done with it: the job still PROCESSING that reads it too,
  // if any, deletes it once it ends.
  async markInputPurged(accountId: string, objectKey: string, at: Date): Promise<void> {
    await this.dataSource.query(
      `UPDATE "jobs"."job" SET "input_purged_at" = $3 WHERE "account_id" = $1 AND "status" <> 'PROCESSING' AND "input_purged_at" IS NULL AND "input"->>'object_key' = $2`,
      [accountId, objectKey, at],
    );
  }
}
