import type { JobOptionsByType, JobType } from '@vj/contracts';
import { RequestValidationPipe } from '../http/request-validation.pipe';
import type { JobCreateBody } from './types/gateway-job-type';
import { gatewayJobType } from './types/gateway-job-types';

export interface ParsedJobBody<T extends JobType> {
  videoUrl: string;
  options: JobOptionsByType[T];
}

// For routes whose body type depends on a parameter (POST /v1/estimates?type=): the create body of that
// job type, checked by the same DTO and pipe as its create endpoint, with the option defaults applied.
export async function parseJobBody(jobType: JobType, body: unknown): Promise<ParsedJobBody<JobType>> {
  const { body: metatype, options } = gatewayJobType(jobType);
  const dto = (await new RequestValidationPipe().transform(body, { type: 'body', metatype })) as JobCreateBody;
  return { videoUrl: dto.video_url, options: options(dto) };
}
