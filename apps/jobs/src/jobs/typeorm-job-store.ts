import { preparedQuery, wholeRowUpdateSql } from '@vj/database';
import { outboxInsertSql, outboxRows } from '@vj/outbox';
import { LessThan, QueryFailedError, type DataSource, type EntityManager } from 'typeorm';
import { IdempotencyKeyEntity } from '../database/idempotency-key.entity';
import { JobEntity } from '../database/job.entity';
import { JOBS_SCHEMA } from '../database/jobs-schema';
import { IdempotencyKeyTakenError, ProcessingCapReachedError, type JobStore, type JobWrite, type ListFilter } from './job-store';

export class TypeormJobStore implements JobStore {
  private selectJobSql?: string;

  constructor(private readonly dataSource: DataSource) {}

  // One statement, committed as it returns (the migration's create_job, decision 0050): the account's
  // creates wait on each other's cap check only while PostgreSQL runs it, never across a round trip.
  async insertJob(write: JobWrite, idempotency: { key: string; requestHash: string; expiredBefore: Date } | null, maxProcessing?: number): Promise<void> {
    try {
      await preparedQuery(this.dataSource, `SELECT "${JOBS_SCHEMA}"."create_job"($1, $2, $3, $4, $5, $6)`, [
        JSON.stringify(write.job),
        JSON.stringify(outboxRows(write.outbox, write.job.updated_at)),
        idempotency?.key ?? null,
        idempotency?.requestHash ?? null,
        idempotency?.expiredBefore ?? null,
        maxProcessing ?? null,
      ]);
    } catch (error) {
      const code = error instanceof QueryFailedError ? (error.driverError as { code?: string }).code : undefined;
      if (code === KEY_TAKEN && idempotency) throw new IdempotencyKeyTakenError(idempotency.key);
      if (code === CAP_PASSED && maxProcessing !== undefined) throw new ProcessingCapReachedError(maxProcessing);
      throw error;
    }
  }

  async findIdempotencyKey(accountId: string, key: string, notBefore: Date): Promise<IdempotencyKeyEntity | null> {
    const row = await this.dataSource.manager.findOneBy(IdempotencyKeyEntity, { account_id: accountId, key });
    return row && row.created_at >= notBefore ? row : null;
  }

  // The hottest read: every GET of a job not yet settled and every worker's status check. The columns
  // map one to one onto the entity, so one plain statement does what the query builder would.
  async findJob(jobId: string): Promise<JobEntity | null> {
    return this.readJob(this.dataSource.manager, jobId, '');
  }

  listJobs({ accountId, jobType, status, after, limit }: ListFilter): Promise<JobEntity[]> {
    const query = this.dataSource.manager
      .createQueryBuilder(JobEntity, 'job')
      .where('job.account_id = :accountId', { accountId })
      // Deleted jobs and completed jobs whose files expired are not found any more (decision 0024).
      .andWhere('job.deleted_at IS NULL AND job.files_purged_at IS NULL')
      .orderBy('job.created_at', 'DESC')
      .addOrderBy('job.job_id', 'DESC')
      .limit(limit);
    if (jobType) query.andWhere('job.job_type = :jobType', { jobType });
    if (status) query.andWhere('job.status = :status', { status });
    if (after) query.andWhere('(job.created_at, job.job_id) < (:createdAt, :jobId)', { createdAt: after.createdAt, jobId: after.id });
    return query.getMany();
  }

  // The job's update and its messages are one statement: the row is locked and read first.
  updateJob<T>(jobId: string, decide: (job: JobEntity | null) => { value: T; write?: JobWrite }): Promise<T> {
    return this.dataSource.transaction(async (tx) => {
      const { value, write } = decide(await this.readJob(tx, jobId, ' FOR UPDATE'));
      if (write) {
        const parts = [wholeRowUpdateSql(this.dataSource.getMetadata(JobEntity), 'job_id', 1)];
        const params: unknown[] = [JSON.stringify(write.job)];
        if (write.outbox.length) {
          parts.push(`published AS (${outboxInsertSql(JOBS_SCHEMA, 2)})`);
          params.push(JSON.stringify(outboxRows(write.outbox, write.job.updated_at)));
        }
        await preparedQuery(tx, `WITH ${parts.join(',\n')} SELECT 1`, params);
      }
      return value;
    });
  }

  private async readJob(manager: EntityManager, jobId: string, lock: '' | ' FOR UPDATE'): Promise<JobEntity | null> {
    this.selectJobSql ??= `SELECT ${this.dataSource
      .getMetadata(JobEntity)
      .columns.map((column) => `"${column.databaseName}"`)
      .join(', ')} FROM "${JOBS_SCHEMA}"."job" WHERE "job_id" = $1`;
    // Prepared, like every statement of a job's create and update: planning them cost more than
    // running them (decision 0054).
    const rows = await preparedQuery<JobEntity>(manager, this.selectJobSql + lock, [jobId]);
    return rows[0] ? Object.assign(new JobEntity(), rows[0]) : null;
  }

  async findJobsPastDeadline(before: Date, limit: number): Promise<string[]> {
    const rows = await this.dataSource.manager.find(JobEntity, {
      select: { job_id: true },
      where: { status: 'PROCESSING', deadline_at: LessThan(before) },
      order: { deadline_at: 'ASC' },
      take: limit,
    });
    return rows.map((row) => row.job_id);
  }

  async findProcessingJobsOf(accountId: string, limit: number): Promise<string[]> {
    const rows = await this.dataSource.manager.find(JobEntity, { select: { job_id: true }, where: { account_id: accountId, status: 'PROCESSING' }, take: limit });
    return rows.map((row) => row.job_id);
  }

  async deleteIdempotencyKeysBefore(before: Date): Promise<number> {
    const result = await this.dataSource.manager.delete(IdempotencyKeyEntity, { created_at: LessThan(before) });
    return result.affected ?? 0;
  }
}

// create_job's refusals (its SQLSTATEs): the key is held for another job; the cap is passed.
const KEY_TAKEN = 'VJ001';
const CAP_PASSED = 'VJ002';
