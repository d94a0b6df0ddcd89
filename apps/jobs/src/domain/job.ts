import type { CreditEstimateV1, JobError, JobInputV1, JobOptionsByType, JobStatus, JobType, StoredResultV1 } from '@vj/contracts';

// The quote's other fields; its credits live in credits_estimated, which the job object shows.
export type StoredEstimate = Omit<CreditEstimateV1, 'credits_estimated'>;

// A job as the domain knows it: its messages, its record and its estimate are made from it. The database
// row (database/job.entity.ts) implements it; nothing here knows how it is stored.
export interface Job {
  job_id: string;
  account_id: string;
  job_type: JobType;
  status: JobStatus;
  input: JobInputV1;
  options: JobOptionsByType[JobType];
  result: StoredResultV1 | null;
  error: JobError | null;
  credits_estimated: number | null;
  estimate: StoredEstimate | null;
  credits_charged: number | null;
  media_duration_seconds: number | null;
  // Deliveries started (the last started report's attempt).
  attempts: number;
  // Attempts that failed for a reason of ours and were retried (decision 0027).
  failed_attempts: number;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
  deadline_at: Date;
  // When billing held the estimate and the work message was written; null until then, so never twice.
  funded_at: Date | null;
  // DELETE /v1/{type}/{job_id}: the job reads as not found from then on.
  deleted_at: Date | null;
  // When the result files were deleted (the job deleted, or RESULT_RETENTION_DAYS after it completed).
  files_purged_at: Date | null;
  // When the uploaded input was deleted after the job ended (or found to need nothing: a URL input).
  input_purged_at: Date | null;
}
