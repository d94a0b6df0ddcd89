import { Logger } from '@nestjs/common';
import { PROGRESS_STAGE_SPANS, type JobProgressUpdateV1, type JobWorkRequestedV1, type ProgressStage } from '@vj/contracts';

// Where a job's update subject gets its progress; a lost update is harmless (the next one replaces it).
export interface ProgressSink {
  publish(update: JobProgressUpdateV1): Promise<void>;
}
export const PROGRESS_SINK = Symbol('ProgressSink');

// Smaller moves are not worth an update.
const MIN_STEP = 0.01;
const FLUSH_LIMIT_MS = 2_000;

export interface ProgressSettings {
  // Within a stage, at most one update this often (a stage change and the end are reported at once).
  intervalMs: number;
  now?: () => number;
}

// One attempt's progress, published in order (each waits for the one before) and never failing the
// job: a sink that cannot publish is logged and the work goes on.
export class ProgressReporter {
  private readonly logger = new Logger(ProgressReporter.name);
  private readonly now: () => number;
  private current: ProgressStage = 'fetching';
  private lastProgress = -1;
  private lastAt = Number.NEGATIVE_INFINITY;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly job: Pick<JobWorkRequestedV1, 'job_id' | 'account_id' | 'job_type'>,
    private readonly attempt: number,
    private readonly sink: ProgressSink,
    private readonly settings: ProgressSettings,
  ) {
    this.now = settings.now ?? Date.now;
  }

  // A new stage begins: reported at once, at the start of its span.
  stage(stage: ProgressStage): void {
    this.current = stage;
    this.publish(PROGRESS_STAGE_SPANS[stage][0]);
  }

  // The current stage is this fraction (0 to 1) done.
  within(fraction: number): void {
    const [from, to] = PROGRESS_STAGE_SPANS[this.current];
    const progress = from + (to - from) * Math.min(Math.max(fraction, 0), 1);
    if (progress - this.lastProgress < MIN_STEP || this.now() - this.lastAt < this.settings.intervalMs) return;
    this.publish(progress);
  }

  // The attempt's work is all done: 1, published before the success is reported, so whoever follows
  // the job sees it before the job completes. A slow stream holds the success back FLUSH_LIMIT_MS at most.
  async done(): Promise<void> {
    this.current = 'uploading';
    this.publish(1);
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => (timer = setTimeout(resolve, FLUSH_LIMIT_MS)));
    await Promise.race([this.chain, limit]);
    clearTimeout(timer);
  }

  private publish(progress: number): void {
    const rounded = Math.round(progress * 1000) / 1000;
    this.lastProgress = rounded;
    this.lastAt = this.now();
    const update: JobProgressUpdateV1 = {
      version: 1,
      job_id: this.job.job_id,
      account_id: this.job.account_id,
      job_type: this.job.job_type,
      kind: 'progress',
      stage: this.current,
      progress: rounded,
      attempt: this.attempt,
      occurred_at: new Date().toISOString(),
    };
    this.chain = this.chain.then(() =>
      this.sink.publish(update).catch((error: unknown) => this.logger.warn(`job ${this.job.job_id}: progress not published: ${String(error)}`)),
    );
  }
}
