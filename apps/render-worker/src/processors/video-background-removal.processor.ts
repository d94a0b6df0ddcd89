import { JobFailure } from '../errors/job-failure';
import type { JobTypeProcessor, ProcessorOutput } from '../processing/ports';

// Background removal is built by a later issue; until then its jobs fail cleanly instead of retrying.
export class VideoBackgroundRemovalProcessor implements JobTypeProcessor<'video-background-removal'> {
  readonly timeLimitMs = 60_000;

  async run(): Promise<ProcessorOutput> {
    throw new JobFailure('generation_failed', 'Video background removal is not available in this deployment yet');
  }
}
