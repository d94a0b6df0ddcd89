import type { JobOptionsByType, JobType } from '@vj/contracts';
import { CreateCleanAudioVideoDto, CreateVideoBackgroundRemovalDto } from '@vj/http-contracts';
import { RequestValidationPipe } from '../http/request-validation.pipe';
import { backgroundRemovalOptions, cleanAudioOptions } from './job-options';

export interface ParsedJobBody<T extends JobType> {
  videoUrl: string;
  options: JobOptionsByType[T];
}

// For routes whose body type depends on a parameter (POST /v1/estimates?type=): the create body of that
// job type, checked by the same DTO and pipe as its create endpoint, with the option defaults applied.
export async function parseJobBody(jobType: JobType, body: unknown): Promise<ParsedJobBody<JobType>> {
  const pipe = new RequestValidationPipe();
  if (jobType === 'clean-audio-video') {
    const dto = (await pipe.transform(body, { type: 'body', metatype: CreateCleanAudioVideoDto })) as CreateCleanAudioVideoDto;
    return { videoUrl: dto.video_url, options: cleanAudioOptions(dto) };
  }
  const dto = (await pipe.transform(body, { type: 'body', metatype: CreateVideoBackgroundRemovalDto })) as CreateVideoBackgroundRemovalDto;
  return { videoUrl: dto.video_url, options: backgroundRemovalOptions(dto) };
}
