import { Inject, Injectable, Logger } from '@nestjs/common';
import type { CreditEstimateV1, JobInputV1, JobOptionsByType, JobType } from '@vj/contracts';
import { BILLING_PORT, type BillingPort } from '../billing/billing-port';
import { MEDIA_PROBE_PORT, type MediaProbePort } from './media-probe-port';
import { ProbedDurations } from './probed-durations';
import { VideoInputResolver } from './video-input.resolver';

export interface JobRequest<T extends JobType> {
  accountId: string;
  jobType: T;
  videoUrl: string;
  options: JobOptionsByType[T];
}

export interface JobQuote {
  input: JobInputV1;
  estimate: CreditEstimateV1;
}

// The price of a job before it exists (decision 0015): the input's duration from a render worker's
// probe, then billing's estimate. Both creates and POST /v1/estimates quote through here.
@Injectable()
export class QuoteJobService {
  private readonly logger = new Logger('QuoteJob');

  constructor(
    private readonly inputs: VideoInputResolver,
    @Inject(MEDIA_PROBE_PORT) private readonly media: MediaProbePort,
    @Inject(BILLING_PORT) private readonly billing: BillingPort,
    private readonly durations: ProbedDurations,
  ) {}

  async quote<T extends JobType>(request: JobRequest<T>): Promise<JobQuote> {
    const input = await this.inputs.resolve(request.accountId, request.videoUrl);
    const estimate = await this.billing.estimate({
      version: 1,
      account_id: request.accountId,
      job_type: request.jobType,
      options: request.options,
      duration_seconds: await this.durations.durationOf(request.accountId, input, () => this.probeDuration(input)),
    });
    return { input, estimate };
  }

  // The duration only refines the quote: without it billing quotes the job type's maximum, so a slow or
  // failed probe never fails a create.
  private async probeDuration(input: JobInputV1): Promise<number | null> {
    try {
      return (await this.media.probe({ version: 1, input })).duration_seconds;
    } catch (error) {
      this.logger.debug(`no duration for the quote (${input.kind} input): ${error instanceof Error ? error.message : String(error)}`);
      return null;
    }
  }
}
