// docs/spec/video-jobs-resources.md section 7; docs/spec/api-v1.md says when each is used.
export const JOB_ERROR_CODES = [
  'input_validation',
  'content_moderation',
  'invalid_file',
  'audio_too_long',
  'transload_failed',
  'generation_failed',
  'timeout',
  'insufficient_credits',
] as const;
export type JobErrorCode = (typeof JOB_ERROR_CODES)[number];
