import { isUuid, preparedQuery, wholeRowUpdateSql } from '@vj/database';
import DataLoader from 'dataloader';
import { outboxInsertSql, outboxRows } from '@vj/outbox';
import { LessThan, QueryFailedError, type DataSource, type EntityManager } from 'typeorm';
import { IdempotencyKeyEntity } from '../database/idempotency-key.entity';
import { JobEntity } from '../database/job.entity';
import { JOBS_SCHEMA } from '../database/jobs-schema';
import { IdempotencyKeyTakenError, ProcessingCapReachedError, type JobStore, type JobWrite, type ListFilter } from './job-store';

type VersionedJob = { job: JobEntity; version: string };

export class TypeormJobStore implements JobStore {
  private selectJobSql?: string;
  // Unlocked reads of one turn of the event loop share one statement: under load a GET, a worker's
  // status check and an update's first read each cost a round trip and PostgreSQL's per-statement work,
  // which is most of what a read costs here, and the replies of a batch leave in one NATS write. Every
  // read still runs after it was asked for, so none is staler than its own statement would be; no cache.
  private readonly unlockedReads = new DataLoader<string, VersionedJob | null>((jobIds) => this.readJobs(jobIds), {
    cache: false,
    batchScheduleFn: (send) => setImmediate(send),
    maxBatchSize: 100,
  });

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

  // The hottest read: every GET of a job not yet settled and every worker's status check, batched with
  // the other unlocked reads of the same turn.
  async findJob(jobId: string): Promise<JobEntity | null> {
    return (await this.unlockedReads.load(jobId))?.job ?? null;
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

  // The job is read without a lock and its change and messages written in one statement, only if no
  // other statement changed the row since (decision 0057): two round trips, where BEGIN, a locked read,
  // the write and COMMIT were four. A job changed meanwhile is decided again on its newest row, locked
  // this time, so an update never goes round more than twice.
  async updateJob<T>(jobId: string, decide: (job: JobEntity | null) => { value: T; write?: JobWrite }): Promise<T> {
    const read = await this.unlockedReads.load(jobId);
    const { value, write } = decide(read?.job ?? null);
    if (!write || (read && (await this.writeJob(this.dataSource.manager, write, read.version)))) return value;
    return this.dataSource.transaction(async (tx) => {
      const locked = await this.readLockedJob(tx, jobId);
      const decided = decide(locked?.job ?? null);
      if (decided.write) await this.writeJob(tx, decided.write);
      return decided.value;
    });
  }

  // The row whole and its outbox rows; with `version` (the row's xmin as read), neither unless the row
  // is still that version. Whether the row was written.
  private async writeJob(manager: EntityManager, write: JobWrite, version?: string): Promise<boolean> {
    const params: unknown[] = [JSON.stringify(write.job)];
    if (version !== undefined) params.push(version);
    const parts = [wholeRowUpdateSql(this.dataSource.getMetadata(JobEntity), 'job_id', 1, version === undefined ? undefined : 2)];
    if (write.outbox.length) {
      params.push(JSON.stringify(outboxRows(write.outbox, write.job.updated_at)));
      parts.push(`published AS (${outboxInsertSql(JOBS_SCHEMA, params.length, 'EXISTS (SELECT 1 FROM updated)')})`);
    }
    const [row] = await preparedQuery<{ written: number }>(manager, `WITH ${parts.join(',\n')} SELECT count(*)::int AS "written" FROM updated`, params);
    return row!.written > 0;
  }

  // The jobs and their row versions (xmin, as text), in the order asked; null where there is none. Ids
  // that are not UUIDs are answered null without asking: one would fail the whole batch's cast.
  private async readJobs(jobIds: readonly string[]): Promise<(VersionedJob | null)[]> {
    const ids = jobIds.map((id) => (isUuid(id) ? id.toLowerCase() : null));
    const valid = [...new Set(ids.filter((id) => id !== null))];
    const rows = valid.length ? await preparedQuery<JobRow>(this.dataSource, `${this.selectJobsSql()} = ANY($1::uuid[])`, [valid]) : [];
    const found = new Map(rows.map((row) => [row.job_id, versioned(row)]));
    return ids.map((id) => (id === null ? null : (found.get(id) ?? null)));
  }

  // The job, locked, and its row version.
  private async readLockedJob(tx: EntityManager, jobId: string): Promise<VersionedJob | null> {
    const [row] = await preparedQuery<JobRow>(tx, `${this.selectJobsSql()} = $1 FOR UPDATE`, [jobId]);
    return row ? versioned(row) : null;
  }

  // Prepared, like every statement of a job's create and update: planning them cost more than running
  // them (decision 0054). The columns map one to one onto the entity.
  private selectJobsSql(): string {
    this.selectJobSql ??= `SELECT ${this.dataSource
      .getMetadata(JobEntity)
      .columns.map((column) => `"${column.databaseName}"`)
      .join(', ')}, "xmin"::text AS "${ROW_VERSION}" FROM "${JOBS_SCHEMA}"."job" WHERE "job_id"`;
    return this.selectJobSql;
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

// The column alias of a read's row version: not a column of the entity.
const ROW_VERSION = 'row_version';

type JobRow = JobEntity & { [ROW_VERSION]: string };

function versioned(row: JobRow): VersionedJob {
  const { [ROW_VERSION]: version, ...columns } = row;
  return { job: Object.assign(new JobEntity(), columns), version };
}

// create_job's refusals (its SQLSTATEs): the key is held for another job; the cap is passed.
const KEY_TAKEN = 'VJ001';
const CAP_PASSED = 'VJ002';
