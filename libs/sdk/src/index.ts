export { VideoJobs, JobResource, Jobs, Uploads, Billing, type VideoJobsOptions, type WaitOptions, type JobRef, type UploadOptions, type UploadResumeOptions } from './client';
export { VideoJobsError, JobFailedError } from './errors';
export type { Progress } from './follow';
export type { UploadSource } from './upload-body';
export * from './types';
export type { paths, components, operations } from './generated/api';
