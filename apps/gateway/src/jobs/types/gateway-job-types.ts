import type { JobType } from '@vj/contracts';
import { CLEAN_AUDIO_VIDEO } from './clean-audio-video.job-type';
import type { GatewayJobType, JobCreateBody } from './gateway-job-type';
import { VIDEO_BACKGROUND_REMOVAL } from './video-background-removal.job-type';

// Every job type the gateway serves, one entry each: a type without one does not compile. The order
// is the routes' order in the OpenAPI document.
export const GATEWAY_JOB_TYPES: { readonly [T in JobType]: GatewayJobType<T, JobCreateBody> } = {
  'video-background-removal': VIDEO_BACKGROUND_REMOVAL,
  'clean-audio-video': CLEAN_AUDIO_VIDEO,
};
