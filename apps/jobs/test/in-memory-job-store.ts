import type { IdempotencyKeyEntity } from '../src/database/idempotency-key.entity';
import type { JobEntity } from '../src/database/job.entity';
import type { OutboxDraft } from '@vj/outbox';
import { IdempotencyKeyTakenError, ProcessingCapReachedError, type JobStore, type JobWrite, type ListFilter } from '../src/jobs/job-store';

// The JobStore fake for unit tests: same contract, plain maps.
export class InMemoryJobStore implements JobStore {
  readonly jobs = new Map<string, JobEntity>();
  readonly keys = new Map<string, IdempotencyKeyEntity>();
  readonly outbox: OutboxDraft[] = [];

  async insertJob(write: JobWrite, idempotency: { key: string; requestHash: string; expiredBefore: Date } | null, maxProcessing?: number): Promise<void> {
    if (maxProcessing !== undefined) {
      const processing = [...this.jobs.values()].filter((job) => job.account_id === write.job.account_id && job.status === 'PROCESSING').length;
      if (processing >= maxProcessing) throw new ProcessingCapReachedError(maxProcessing);
    }
    if (idempotency) {
      const id = `${write.job.account_id}/${idempotency.key}`;
      const existing = this.keys.get(id);
      if (existing && existing.created_at >= idempotency.expiredBefore) throw new IdempotencyKeyTakenError(idempotency.key);
      this.keys.set(id, { account_id: write.job.account_id, key: idempotency.key, request_hash: idempotency.requestHash, job_id: write.job.job_id, created_at: write.job.created_at });
    }
    this.jobs.set(write.job.job_id, write.job);
    this.outbox.push(...write.outbox);
  }

  async findIdempotencyKey(accountId: string, key: string, notBefore: Date): Promise<IdempotencyKeyEntity | null> {
    const row = this.keys.get(`${accountId}/${key}`);
    return row && row.created_at >= notBefore ? row : null;
  }

  async findJob(jobId: string): Promise<JobEntity | null> {
    return this.jobs.get(jobId) ?? null;
  }

  async listJobs({ accountId, limit }: ListFilter): Promise<JobEntity[]> {
    return [...this.jobs.values()].filter((job) => job.account_id === accountId && !job.deleted_at && !job.files_purged_at).reverse().slice(0, limit);
  }

  async updateJob<T>(jobId: string, decide: (job: JobEntity | null) => { value: T; write?: JobWrite }): Promise<T> {
    const { value, write } = decide(this.jobs.get(jobId) ?? null);
    if (write) {
      this.jobs.set(jobId, write.job);
      this.outbox.push(...write.outbox);
    }
    return value;
  }

  async findJobsPastDeadline(before: Date, limit: number): Promise<string[]> {
    return [...this.jobs.values()].filter((job) => job.status === 'PROCESSING' && job.deadline_at < before).slice(0, limit).map((job) => job.job_id);
  }

  async findProcessingJobsOf(accountId: string, limit: number): Promise<string[]> {
    return [...this.jobs.values()].filter((job) => job.account_id === accountId && job.status === 'PROCESSING').slice(0, limit).map((job) => job.job_id);
  }

  async deleteIdempotencyKeysBefore(before: Date): Promise<number> {
    let deleted = 0;
    for (const [id, row] of this.keys) if (row.created_at < before && this.keys.delete(id)) deleted++;
    return deleted;
  }
}
