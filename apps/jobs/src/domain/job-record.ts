import type { JobRecordV1 } from '@vj/contracts';
import type { Job } from './job';

export function toJobRecord(job: Job): JobRecordV1 {
  return {
    job_id: job.job_id,
    account_id: job.account_id,
    job_type: job.job_type,
    status: job.status,
    input: job.input,
    options: job.options,
    created_at: job.created_at.toISOString(),
    updated_at: job.updated_at.toISOString(),
    credits_estimated: job.credits_estimated,
    credits_charged: job.credits_charged,
    result: job.result,
    error: job.error,
    failed_attempts: job.failed_attempts,
  };
}
