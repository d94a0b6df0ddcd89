import { BACKGROUND_REMOVAL_DEFAULTS, type JobWorkRequestedV1, type VideoBackgroundRemovalOptions } from '@vj/contracts';
import { removeBackground, type RemoveBackgroundRequest, type MattedVideo } from '../matting/remove-background';
import type { MattingModelRegistry } from '../matting/model-registry';
import type { JobTypeProcessor, ProcessorOutput, ProcessorRun } from '../processing/ports';

export interface BackgroundRemovalSettings {
  maxSeconds: number;
  timeLimitMs: number;
  ffmpegPath?: string;
  ffprobePath?: string;
}

export class VideoBackgroundRemovalProcessor implements JobTypeProcessor<'video-background-removal'> {
  constructor(
    private readonly settings: BackgroundRemovalSettings,
    private readonly models: MattingModelRegistry,
    private readonly remove: (request: RemoveBackgroundRequest) => Promise<MattedVideo> = removeBackground,
  ) {}

  get timeLimitMs(): number {
    return this.settings.timeLimitMs;
  }

  // Before the input is fetched: a model this deployment lacks fails the job at once.
  check(job: JobWorkRequestedV1<'video-background-removal'>): void {
    this.models.segmentersFor(optionsOf(job).subject_is_person);
  }

  async run({ job, inputPath, workDir, signal }: ProcessorRun<'video-background-removal'>): Promise<ProcessorOutput> {
    const options = optionsOf(job);
    const matted = await this.remove({
      inputPath,
      workDir,
      options,
      segmenters: this.models.segmentersFor(options.subject_is_person),
      maxSeconds: this.settings.maxSeconds,
      timeoutMs: this.settings.timeLimitMs,
      signal,
      ffmpegPath: this.settings.ffmpegPath,
      ffprobePath: this.settings.ffprobePath,
    });
    return {
      files: matted.files.map((file) => ({ path: file.path, fileName: `${job.job_id}-${file.role}.${file.fileExtension}`, contentType: file.contentType })),
      durationSeconds: matted.durationSeconds,
    };
  }
}

// Defaults again, for work messages written before an option existed.
function optionsOf(job: JobWorkRequestedV1<'video-background-removal'>): VideoBackgroundRemovalOptions {
  return { ...BACKGROUND_REMOVAL_DEFAULTS, ...job.options };
}
