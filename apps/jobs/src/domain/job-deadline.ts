import type { JobStartedReportV1, JobType } from '@vj/contracts';

export type JobTimeouts = Record<JobType, number>;

// The deadline a job gets at creation, counted from it (api-v1.md: `timeout`). It only matters for a job
// no worker ever starts: the worker's started report replaces it with its own (workerDeadline).
export function jobDeadline(createdAt: Date, jobType: JobType, timeoutSeconds: JobTimeouts): Date {
  return new Date(createdAt.getTime() + timeoutSeconds[jobType] * 1_000);
}

// The deadline a started report announces: the worker's limits (fetch, processing, upload) count from
// when it starts, so a job that queued or fetched for long is not swept while still running. Undefined
// when the report has none (an older worker) or it is not a date: the job keeps its deadline.
export function workerDeadline(report: Pick<JobStartedReportV1, 'deadline_at'>): Date | undefined {
  if (typeof report.deadline_at !== 'string') return undefined;
  const deadline = new Date(report.deadline_at);
  return Number.isNaN(deadline.getTime()) ? undefined : deadline;
}
