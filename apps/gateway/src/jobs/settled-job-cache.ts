import type { JobRecordV1, JobType } from '@vj/contracts';
import { LRUCache } from 'lru-cache';

const MAX_ENTRIES = 10_000;

// Job records that can no longer change, kept for a few seconds so a client reading a finished job
// again (or many times a second) costs no trip to the jobs service (decision 0036). Settled means final
// and, for a completed job, charged: from then on only a deletion or the retention expiry changes what a
// read answers. A DELETE through this gateway drops the job at once; a deletion through another
// instance, or the expiry, shows here at most the time-to-live late. Never a stale status or charge.
export class SettledJobCache {
  private readonly records: LRUCache<string, JobRecordV1> | null;

  constructor(ttlMs: number) {
    this.records = ttlMs > 0 ? new LRUCache<string, JobRecordV1>({ max: MAX_ENTRIES, ttl: ttlMs }) : null;
  }

  // Only the owner's read of the right type finds it, as through the jobs service.
  get(accountId: string, jobType: JobType, jobId: string): JobRecordV1 | undefined {
    const record = this.records?.get(jobId);
    return record && record.account_id === accountId && record.job_type === jobType ? record : undefined;
  }

  remember(record: JobRecordV1): void {
    if (isSettled(record)) this.records?.set(record.job_id, record);
  }

  forget(jobId: string): void {
    this.records?.delete(jobId);
  }
}

function isSettled(record: JobRecordV1): boolean {
  return record.status === 'FAILED' || record.status === 'CANCELLED' || (record.status === 'COMPLETED' && record.credits_charged !== null);
}
