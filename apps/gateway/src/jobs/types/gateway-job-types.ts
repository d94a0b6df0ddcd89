import { JOB_TYPES, type JobType } from '@vj/contracts';
import { CLEAN_AUDIO_VIDEO } from './clean-audio-video.job-type';
import type { GatewayJobType, JobCreateBody } from './gateway-job-type';
import { VIDEO_BACKGROUND_REMOVAL } from './video-background-removal.job-type';

// Every built-in job type the gateway serves, one entry each: a type without one does not compile.
const BUILT_IN: { readonly [T in JobType]: GatewayJobType<T, JobCreateBody> } = {
  'video-background-removal': VIDEO_BACKGROUND_REMOVAL,
  'clean-audio-video': CLEAN_AUDIO_VIDEO,
};

const parts = new Map<string, GatewayJobType<JobType, JobCreateBody>>(Object.entries(BUILT_IN));

export function gatewayJobType<T extends JobType>(type: T): GatewayJobType<T, JobCreateBody> {
  const part = parts.get(type);
  if (!part) throw new Error(`job type ${type} has no gateway part: register one with registerGatewayJobType`);
  return part as GatewayJobType<T, JobCreateBody>;
}

// Every registered job type's part, in the registry's order: the routes' order in the OpenAPI document.
export function gatewayJobTypes(): GatewayJobType<JobType, JobCreateBody>[] {
  return JOB_TYPES.map((type) => gatewayJobType(type));
}

// The gateway's part of a job type registered at run time (registerJobType), before the app module loads.
export function registerGatewayJobType(part: GatewayJobType<JobType, JobCreateBody>): void {
  if (parts.has(part.names.type)) throw new Error(`job type ${part.names.type} has a gateway part already`);
  parts.set(part.names.type, part);
}
