import type { JobType } from '@vj/contracts';

export type JobTimeouts = Record<JobType, number>;

// The time limit of a job's processing, counted from its creation (api-v1.md: `timeout`).
export function jobDeadline(createdAt: Date, jobType: JobType, timeoutSeconds: JobTimeouts): Date {
  return new Date(createdAt.getTime() + timeoutSeconds[jobType] * 1_000);
}
