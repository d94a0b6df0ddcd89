import type { JobError } from './job-object';
import type { JobInputV1 } from './job-input';
import type { JobOptionsByType } from './job-options';
import type { JobStatus } from './job-status';
import type { JobType } from './job-type';
import type { StoredResultV1 } from './stored-result';

// The jobs service's view of a job as it crosses NATS; the gateway renders the public job object from it.
export interface JobRecordV1<T extends JobType = JobType> {
  job_id: string;
  account_id: string;
  job_type: T;
  status: JobStatus;
  input: JobInputV1;
  options: JobOptionsByType[T];
  created_at: string;
  updated_at: string;
  credits_estimated: number | null;
  credits_charged: number | null;
  result: StoredResultV1 | null;
  error: JobError | null;
  // Processing attempts that failed for a reason of ours (retried), not deliveries: a graceful stop, a
  // lost worker or an outage of a dependency never counts. Absent from older jobs services.
  failed_attempts?: number;
}
