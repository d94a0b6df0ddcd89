import type { JobStatus, JobType } from '@vj/contracts';
import type { IdempotencyKeyEntity } from '../database/idempotency-key.entity';
import type { Job } from '../domain/job';
import type { ListPosition } from '@vj/database';
import type { OutboxDraft } from '@vj/outbox';

export interface ListFilter {
  accountId: string;
  jobType?: JobType;
  status?: JobStatus;
  after?: ListPosition;
  limit: number;
}

// What a locked-job decision wants written: the job's new state and its messages, in one transaction.
export interface JobWrite {
  job: Job;
  outbox: OutboxDraft[];
}

// Thrown when another create holds the same (account, Idempotency-Key).
export class IdempotencyKeyTakenError extends Error {}

// Thrown when the account already has its cap of PROCESSING jobs.
export class ProcessingCapReachedError extends Error {
  constructor(readonly cap: number) {
    super(`the account already has ${cap} jobs PROCESSING, its limit; retry when one has ended`);
  }
}

// All job persistence behind one port, so the service unit-tests with an in-memory fake.
export interface JobStore {
  // Inserts the job, its idempotency key (replacing an expired one) and its outbox rows atomically.
  // With maxProcessing, the account's PROCESSING jobs (this one included) are counted under a lock of
  // the account, so concurrent creates never pass the cap together (ProcessingCapReachedError).
  insertJob(write: JobWrite, idempotency: { key: string; requestHash: string; expiredBefore: Date } | null, maxProcessing?: number): Promise<void>;
  findIdempotencyKey(accountId: string, key: string, notBefore: Date): Promise<IdempotencyKeyEntity | null>;
  findJob(jobId: string): Promise<Job | null>;
  listJobs(filter: ListFilter): Promise<Job[]>;
  // Locks the job row, lets `decide` look at it, and writes what it returns, all in one transaction.
  updateJob<T>(jobId: string, decide: (job: Job | null) => { value: T; write?: JobWrite }): Promise<T>;
  findJobsPastDeadline(before: Date, limit: number): Promise<string[]>;
  findProcessingJobsOf(accountId: string, limit: number): Promise<string[]>;
  deleteIdempotencyKeysBefore(before: Date): Promise<number>;
}
