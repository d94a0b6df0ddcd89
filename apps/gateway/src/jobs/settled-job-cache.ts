import type { JobObject, JobRecordV1, JobType } from '@vj/contracts';
import { LRUCache } from 'lru-cache';

const MAX_ENTRIES = 10_000;

interface SettledJob {
  accountId: string;
  jobType: JobType;
  job: JobObject;
}

// The answers for jobs that can no longer change, kept for a few seconds so a client reading a finished
// job again (or many times a second) costs no trip to the jobs service and no presigning (decision
// 0036). Settled means final and, for a completed job, charged: from then on only a deletion or the
// retention expiry changes what a read answers. A DELETE through this gateway drops the job at once; a
// deletion through another instance, or the expiry, shows here at most the time-to-live late, and a
// URL served from here expires at most that much sooner. Never a stale status or charge.
export class SettledJobCache {
  private readonly jobs: LRUCache<string, SettledJob> | null;

  constructor(ttlMs: number) {
    this.jobs = ttlMs > 0 ? new LRUCache<string, SettledJob>({ max: MAX_ENTRIES, ttl: ttlMs }) : null;
  }

  // Only the owner's read of the right type finds it, as through the jobs service.
  get(accountId: string, jobType: JobType, jobId: string): JobObject | undefined {
    const settled = this.jobs?.get(jobId);
    return settled && settled.accountId === accountId && settled.jobType === jobType ? settled.job : undefined;
  }

  // `job` is the record rendered for its owner; it is answered as it is, so no caller may change it.
  remember(record: JobRecordV1, job: JobObject): void {
    if (isSettled(record)) this.jobs?.set(record.job_id, { accountId: record.account_id, jobType: record.job_type, job });
  }

  forget(jobId: string): void {
    this.jobs?.delete(jobId);
  }
}

function isSettled(record: JobRecordV1): boolean {
  return record.status === 'FAILED' || record.status === 'CANCELLED' || (record.status === 'COMPLETED' && record.credits_charged !== null);
}
