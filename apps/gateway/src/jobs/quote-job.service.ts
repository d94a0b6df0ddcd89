import { Inject, Injectable, Logger } from '@nestjs/common';
import { quoteJob, type CreditEstimateV1, type VideoInputV1, type JobOptionsByType, type JobType } from '@vj/contracts';
import { CurrentPrices } from '../billing';
import { MEDIA_PROBE_PORT, type MediaProbePort } from './media-probe-port';
import { ProbedDurations, type ProbeOutcome } from './probed-durations';
import { UploadsRepository } from '../uploads';
import { VideoInputResolver } from './video-input.resolver';

export interface JobRequest<T extends JobType> {
  accountId: string;
  jobType: T;
  videoUrl: string;
  options: JobOptionsByType[T];
}

export interface JobQuote {
  input: VideoInputV1;
  estimate: CreditEstimateV1;
  // The input was probed for this quote (seconds may have passed since the caller was authenticated).
  probedNow: boolean;
}

// The price of a job before it exists (decision 0015): the input's duration from a render worker's
// probe, priced with billing's current price list (cached, decision 0037). Both creates and
// POST /v1/estimates quote through here. An upload is probed once: its duration is kept with it for
// the bytes probed (decision 0036).
// A probe that does not answer in time is tried once more before the maximum is quoted: a worker busy
// for a moment is not a reason to hold 1,800 credits for a clip of a few seconds (decision 0090).
const PROBE_ATTEMPTS = 2;

@Injectable()
export class QuoteJobService {
  private readonly logger = new Logger('QuoteJob');

  constructor(
    private readonly inputs: VideoInputResolver,
    @Inject(MEDIA_PROBE_PORT) private readonly media: MediaProbePort,
    private readonly prices: CurrentPrices,
    private readonly durations: ProbedDurations,
    private readonly uploads: UploadsRepository,
  ) {}

  async quote<T extends JobType>(request: JobRequest<T>): Promise<JobQuote> {
    const { input, probedDuration } = await this.inputs.resolve(request.accountId, request.videoUrl);
    const probedNow = probedDuration === undefined;
    const outcome: ProbeOutcome = probedNow ? await this.durations.durationOf(request.accountId, input, () => this.probeAndKeep(input)) : { seconds: probedDuration };
    const unknownBasis = outcome.seconds === null && outcome.timedOut ? 'max_duration_timed_out' : 'max_duration';
    const estimate = quoteJob(await this.prices.current(), request.jobType, request.options, outcome.seconds, unknownBasis);
    return { input, estimate, probedNow };
  }

  private async probeAndKeep(input: VideoInputV1): Promise<ProbeOutcome> {
    let outcome = await this.probeOnce(input);
    for (let attempt = 1; attempt < PROBE_ATTEMPTS && outcome.seconds === null && outcome.timedOut; attempt++) outcome = await this.probeOnce(input);
    if (outcome.seconds !== null && input.kind === 'upload' && input.etag) {
      // Only saves the next quote a probe: a failure to keep it fails nothing.
      await this.uploads.recordDuration(input.upload_id, input.etag, outcome.seconds).catch((error: unknown) => this.logger.warn(`upload ${input.upload_id}: duration not kept: ${String(error)}`));
    }
    return outcome;
  }

  // The duration only refines the quote: without it the job type's maximum is quoted, so a slow or
  // failed probe never fails a create. No answer at all (the request's time limit, no worker up) is a
  // time out as much as the worker's own limit is.
  private async probeOnce(input: VideoInputV1): Promise<ProbeOutcome> {
    try {
      const reply = await this.media.probe({ version: 1, input });
      return reply.duration_seconds === null ? { seconds: null, timedOut: reply.timed_out === true } : { seconds: reply.duration_seconds };
    } catch (error) {
      this.logger.debug(`no duration for the quote (${input.kind} input): ${error instanceof Error ? error.message : String(error)}`);
      return { seconds: null, timedOut: true };
    }
  }
}
