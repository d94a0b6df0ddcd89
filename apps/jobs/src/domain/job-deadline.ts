import type { JobStartedReportV1 } from '@vj/contracts';

// The deadline a job gets at creation: how long it may wait in the queue (JOB_QUEUE_TIMEOUT_SECONDS).
// The worker's started report replaces it with its own (workerDeadline): `timeout` counts processing.
export function queueDeadline(createdAt: Date, queueTimeoutSeconds: number): Date {
  return new Date(createdAt.getTime() + queueTimeoutSeconds * 1_000);
}

// The deadline a started report announces: the worker's limits (fetch, processing, upload) count from
// when it starts, so a job that queued or fetched for long is not swept while still running. Undefined
// when the report has none (an older worker) or it is not a date: the job keeps its deadline.
export function workerDeadline(report: Pick<JobStartedReportV1, 'deadline_at'>): Date | undefined {
  if (typeof report.deadline_at !== 'string') return undefined;
  const deadline = new Date(report.deadline_at);
  return Number.isNaN(deadline.getTime()) ? undefined : deadline;
}
