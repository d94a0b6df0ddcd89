export const JOB_STATUSES = ['PROCESSING', 'COMPLETED', 'FAILED', 'CANCELLED'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

// Final states never change (docs/spec/video-jobs-resources.md section 3).
export const FINAL_JOB_STATUSES: readonly JobStatus[] = ['COMPLETED', 'FAILED', 'CANCELLED'];

export function isFinalJobStatus(status: JobStatus): boolean {
  return FINAL_JOB_STATUSES.includes(status);
}
