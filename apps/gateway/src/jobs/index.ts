// The jobs feature's public surface: what other gateway folders may import (eslint.config.mjs
// enforces it).
export { JOB_UPDATES_PORT, type JobUpdatesPort, type StoredJobUpdate } from './job-updates-port';
export { JobsApiModule } from './jobs-api.module';
export { JOBS_PORT, JobsServiceError, type JobsPort, type JobsServiceErrorCode } from './jobs-port';
export { MEDIA_PROBE_PORT, type MediaProbePort } from './media-probe-port';
export { ProbedDurations } from './probed-durations';
export { QuoteJobService } from './quote-job.service';
export type { VideoInputResolver } from './video-input.resolver';
