// The path segment of each job resource is its wire name everywhere (API, subjects, database).
export const JOB_TYPES = ['video-background-removal', 'clean-audio-video'] as const;
export type JobType = (typeof JOB_TYPES)[number];

export function isJobType(value: unknown): value is JobType {
  return typeof value === 'string' && (JOB_TYPES as readonly string[]).includes(value);
}
