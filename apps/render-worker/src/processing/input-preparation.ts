import { Inject, Injectable, Logger } from '@nestjs/common';
import type { JobWorkRequestedV1 } from '@vj/contracts';
import { JobFailure } from '../errors/job-failure';
import type { FetchedInput } from '../input/fetched-input';
import { MODERATION_POLICY, type ModerationPolicy } from '../moderation/moderation-policy';
import { untilReachable } from './dependency-outage';
import { INPUT_MEASURER, INPUT_SOURCE, JOB_FUNDING, type InputMeasurer, type InputSource, type JobFunding, type JobTypeProcessor, type MeasuredInput } from './ports';

// Everything between a job's work message and its processing: the input fetched and moderated, then
// measured from its own packets and paid for (decision 0023). A quote may have been made on other
// bytes (a URL that answers its ranged probe with a short video); the hold follows what will be
// processed, or the job fails insufficient_credits before any processing and nothing is charged.
@Injectable()
export class InputPreparation {
  private readonly logger = new Logger(InputPreparation.name);

  constructor(
    @Inject(INPUT_SOURCE) private readonly inputs: InputSource,
    @Inject(MODERATION_POLICY) private readonly moderation: ModerationPolicy,
    @Inject(INPUT_MEASURER) private readonly measurer: InputMeasurer,
    @Inject(JOB_FUNDING) private readonly funding: JobFunding,
  ) {}

  async fetch(job: JobWorkRequestedV1, destPath: string, signal: AbortSignal): Promise<FetchedInput> {
    const input = await this.inputs.fetch(job, destPath, signal);
    const verdict = await this.moderation.check(input);
    if (!verdict.allowed) {
      throw new JobFailure('content_moderation', 'The input was rejected by the content policy', [{ type: 'moderation', message: verdict.reason, field: 'video_url' }]);
    }
    signal.throwIfAborted();
    return input;
  }

  // The input as the job will process and be charged for it, once billing holds the price of its seconds.
  async payFor(job: JobWorkRequestedV1, processor: JobTypeProcessor, input: FetchedInput, signal: AbortSignal): Promise<MeasuredInput> {
    const measured = await this.measurer.measure(input.path, processor.maxSeconds, signal);
    const refusal = processor.refusal(measured, job);
    if (refusal) throw refusal;
    await untilReachable(`job ${job.job_id}: billing`, () => this.funding.cover(job, measured.seconds), signal, this.logger);
    signal.throwIfAborted();
    return measured;
  }
}
