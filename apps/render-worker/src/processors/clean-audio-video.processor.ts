import { CLEAN_AUDIO_DEFAULTS } from '@vj/contracts';
import { cleanAudioVideo, MediaError, ProcessRunner, type CleanAudioVideoRequest, type CleanedVideo, type WarmNodeProcesses } from '../media';
import type { JobTypeProcessor, MeasuredInput, ProcessorOutput, ProcessorRun } from '../processing/ports';

export interface CleanAudioSettings {
  maxAudioSeconds: number;
  timeLimitMs: number;
  ffmpegPath?: string;
  ffprobePath?: string;
  // Denoisers a job may run at once on long audio.
  denoisers?: number;
  // Denoisers booted ahead of the jobs that use them.
  warmDenoisers?: Pick<WarmNodeProcesses, 'spawn' | 'fill'>;
}

export class CleanAudioVideoProcessor implements JobTypeProcessor<'clean-audio-video'> {
  private readonly runner: ProcessRunner | undefined;

  constructor(
    private readonly settings: CleanAudioSettings,
    private readonly clean: (request: CleanAudioVideoRequest) => Promise<CleanedVideo> = cleanAudioVideo,
  ) {
    this.runner = settings.warmDenoisers && new ProcessRunner(settings.warmDenoisers.spawn);
  }

  get timeLimitMs(): number {
    return this.settings.timeLimitMs;
  }

  get maxSeconds(): number {
    return this.settings.maxAudioSeconds;
  }

  // "up to 30 minutes of media (longer: job fails with audio_too_long)" (docs/spec/api-v1.md).
  refusal({ seconds }: MeasuredInput): MediaError | null {
    if (seconds <= this.settings.maxAudioSeconds) return null;
    return new MediaError('audio_too_long', `The audio is longer than ${this.settings.maxAudioSeconds} seconds`, [
      { type: 'audio_too_long', message: `The media lasts more than ${Math.floor(seconds)} s; the limit is ${this.settings.maxAudioSeconds} s` },
    ]);
  }

  async run({ job, inputPath, workDir, signal, probe, onProgress }: ProcessorRun<'clean-audio-video'>): Promise<ProcessorOutput> {
    const cleaned = await this.clean({
      inputPath,
      workDir,
      probe,
      // Defaults again, for work messages written before an option existed.
      options: { ...CLEAN_AUDIO_DEFAULTS, ...job.options },
      maxAudioSeconds: this.settings.maxAudioSeconds,
      denoisers: this.settings.denoisers,
      timeoutMs: this.settings.timeLimitMs,
      signal,
      onProgress,
      ffmpegPath: this.settings.ffmpegPath,
      ffprobePath: this.settings.ffprobePath,
      runner: this.runner,
    });
    return {
      files: [{ path: cleaned.outputPath, fileName: `${job.job_id}-clean.${cleaned.fileExtension}`, contentType: cleaned.contentType }],
      durationSeconds: cleaned.durationSeconds,
    };
  }

  // The denoisers this job used are replaced now that it is done.
  afterDelivery(): void {
    this.settings.warmDenoisers?.fill();
  }
}
