import { BACKGROUND_REMOVAL_DEFAULTS, isCompositeBackground, type JobWorkRequestedV1, type OutputCodec, type VideoBackgroundRemovalOptions } from '@vj/contracts';
import { join } from 'node:path';
import type { BackgroundImages } from '../matting/background-image';
import { removeBackground, type RemoveBackgroundRequest, type MattedVideo } from '../matting/remove-background';
import type { MattingModelRegistry } from '../matting/model-registry';
import { frameGeometry } from '../matting/frame-geometry';
import { MediaError } from '../media';
import type { BackgroundRemovalPieces } from '../pieces/background-removal-pieces';
import type { JobTypeProcessor, KeptForExports, MeasuredInput, PiecePlan, ProcessorOutput, ProcessorRun } from '../processing/ports';

export const MAX_FRAMES_PER_SECOND = 60;

// The result's bytes a pixel of a frame, for the codecs whose files grow with the pictures: two to
// three times what footage takes here (ProRes 4444 at the encoder's fixed quantiser 0.2 to 0.25,
// decision 0084; RGBA PNGs with nothing under the transparent pixels about 0.4, decision 0085). A
// result this estimate puts over the limit is refused before anything is charged. It is no bound
// (noise takes up to 5.6 bytes a pixel): the file itself stops at the limit.
const LARGE_RESULTS: Partial<Record<OutputCodec, { bytesPerPixel: number; name: string }>> = {
  prores: { bytesPerPixel: 0.5, name: 'ProRes 4444' },
  png_sequence: { bytesPerPixel: 1, name: 'PNG sequence' },
};

export interface BackgroundRemovalSettings {
  maxSeconds: number;
  timeLimitMs: number;
  // The largest result file a job may write (the worker's disk holds one input and its result).
  maxResultBytes: number;
  ffmpegPath?: string;
  ffprobePath?: string;
  // Keeps each job's alpha frames and input for exports (decision 0094; BACKGROUND_REMOVAL_KEEP_MATTE). Absent: kept.
  keepMatte?: boolean;
}

export class VideoBackgroundRemovalProcessor implements JobTypeProcessor<'video-background-removal'> {
  constructor(
    private readonly settings: BackgroundRemovalSettings,
    private readonly models: MattingModelRegistry,
    private readonly remove: (request: RemoveBackgroundRequest) => Promise<MattedVideo> = removeBackground,
    // Fetches and checks a background image_url; a worker without it refuses such jobs.
    private readonly images: Pick<BackgroundImages, 'fetch'> | null = null,
    // Plans a long video as pieces (decision 0101); without it every video is matted here.
    private readonly pieces: Pick<BackgroundRemovalPieces, 'plan'> | null = null,
  ) {}

  // An export encodes its source's matte: never cut into pieces.
  async plan(job: JobWorkRequestedV1<'video-background-removal'>, inputPath: string, measured: MeasuredInput, signal: AbortSignal): Promise<PiecePlan | null> {
    if (!this.pieces || job.input.kind === 'export') return null;
    return this.pieces.plan(inputPath, measured, signal);
  }

  get timeLimitMs(): number {
    return this.settings.timeLimitMs;
  }

  get maxSeconds(): number {
    return this.settings.maxSeconds;
  }

  // Priced by the second, run by the picture: a video is at most maxSeconds long and at most
  // MAX_FRAMES_PER_SECOND pictures a second on average (a 1000 fps clip would be 33 times the work).
  // A ProRes result grows with the pictures: it must fit the worker's disk.
  refusal({ seconds, videoFrames, probe }: MeasuredInput, job: JobWorkRequestedV1<'video-background-removal'>): MediaError | null {
    if (seconds > this.settings.maxSeconds) {
      return new MediaError('input_validation', `The video is longer than ${this.settings.maxSeconds} seconds`, [
        { type: 'video_too_long', message: `The video lasts more than ${Math.floor(seconds)} s; the limit is ${this.settings.maxSeconds} s`, field: 'video_url' },
      ]);
    }
    if (videoFrames > Math.max(2, Math.ceil(seconds * MAX_FRAMES_PER_SECOND) + 1)) {
      return new MediaError('input_validation', `The video has more than ${MAX_FRAMES_PER_SECOND} frames a second`, [
        {
          type: 'frame_rate_too_high',
          message: `The video holds ${videoFrames} frames in ${seconds.toFixed(2)} s; at most ${MAX_FRAMES_PER_SECOND} a second are taken`,
          field: 'video_url',
        },
      ]);
    }
    return this.resultRefusal(optionsOf(job).output_codec, videoFrames, probe);
  }

  // At the size the job encodes (frameGeometry: past 3840x2160 the picture is scaled down).
  private resultRefusal(codec: OutputCodec, videoFrames: number, probe: MeasuredInput['probe']): MediaError | null {
    const large = LARGE_RESULTS[codec];
    if (!large || !probe?.video) return null;
    const { width, height } = frameGeometry(probe.video);
    const bytes = width * height * videoFrames * large.bytesPerPixel;
    if (bytes <= this.settings.maxResultBytes) return null;
    const gib = (value: number) => (value / 1024 ** 3).toFixed(1);
    return new MediaError('input_validation', `The ${large.name} of this video would be too large`, [
      {
        type: 'result_too_large',
        message: `A ${large.name} of ${videoFrames} frames at ${width}x${height} takes about ${gib(bytes)} GiB; the limit is ${gib(this.settings.maxResultBytes)} GiB: choose vp9 or h264, or a shorter or smaller video`,
        field: 'output_codec',
      },
    ]);
  }

  // Before the input is fetched: a model this deployment lacks fails the job at once.
  // A background goes into ffmpeg's filter graph: only what the API lets through is taken.
  check(job: JobWorkRequestedV1<'video-background-removal'>): void {
    const options = optionsOf(job);
    this.models.segmentersFor(options.subject_is_person);
    if (options.background && !isCompositeBackground(options.background)) {
      throw new MediaError('input_validation', 'The background is not one the API takes', [
        { type: 'invalid_background', message: 'background must be { "color": "#RRGGBB" }, { "blur": 0..1 } or { "image_url": "<http(s) or upload:// URL>" }', field: 'background' },
      ]);
    }
  }

  // A job keeps its alpha frames and its input for exports; an export encodes from its source's,
  // without the model (decision 0094).
  async run({ job, inputPath, workDir, signal, probe, exportSourcePath, onProgress }: ProcessorRun<'video-background-removal'>): Promise<ProcessorOutput> {
    const options = optionsOf(job);
    const backgroundImagePath = await fetchBackgroundImage(this.images, options, job.account_id, workDir, signal);
    const isExport = job.input.kind === 'export';
    if (isExport && !exportSourcePath) throw new Error(`job ${job.job_id}: an export without its source's matte`);
    const keepMatteAt = !isExport && this.settings.keepMatte !== false ? join(workDir, 'matte.mkv') : undefined;
    const matted = await this.remove({
      inputPath,
      workDir,
      probe,
      options,
      ...(backgroundImagePath && { backgroundImagePath }),
      segmenters: this.models.segmentersFor(options.subject_is_person),
      maxSeconds: this.settings.maxSeconds,
      maxResultBytes: this.settings.maxResultBytes,
      timeoutMs: this.settings.timeLimitMs,
      signal,
      onProgress,
      ffmpegPath: this.settings.ffmpegPath,
      ffprobePath: this.settings.ffprobePath,
      ...(isExport ? { fromMatte: exportSourcePath } : keepMatteAt ? { keepMatteAt } : {}),
    });
    return {
      files: matted.files.map((file) => ({ path: file.path, fileName: `${job.job_id}-${file.role}.${file.fileExtension}`, contentType: file.contentType })),
      durationSeconds: matted.durationSeconds,
      ...(keepMatteAt && matted.matteKept !== false && { kept: keptMatte(job.job_id, keepMatteAt, inputPath) }),
      ...(matted.quality && {
        quality: { kind: 'cutout' as const, frames: matted.quality.frames, frames_with_person: matted.quality.framesWithPerson, flicker: matted.quality.flicker },
      }),
    };
  }
}

// What a job keeps for its exports (decision 0094): its alpha frames and its input as fetched. A long
// job's join keeps the same, its segments' mattes joined (decision 0106).
export function keptMatte(jobId: string, mattePath: string, inputPath: string): KeptForExports {
  return {
    files: {
      file: { path: mattePath, fileName: `${jobId}-kept-matte.mkv`, contentType: 'video/x-matroska' },
      source: { path: inputPath, fileName: `${jobId}-kept-source`, contentType: 'application/octet-stream' },
    },
    details: { kind: 'matte' },
  };
}

// Defaults again, for work messages written before an option existed.
export function optionsOf(job: Pick<JobWorkRequestedV1<'video-background-removal'>, 'options'>): VideoBackgroundRemovalOptions {
  return { ...BACKGROUND_REMOVAL_DEFAULTS, ...job.options };
}

// A background image_url, fetched into the job's folder before the model runs: a refused image
// costs nothing.
export async function fetchBackgroundImage(
  images: Pick<BackgroundImages, 'fetch'> | null,
  options: VideoBackgroundRemovalOptions,
  accountId: string,
  workDir: string,
  signal: AbortSignal,
): Promise<string | null> {
  if (!options.background || !('image_url' in options.background)) return null;
  if (!images) throw new Error('this worker was started without a fetcher for background images');
  const path = join(workDir, 'background-image');
  await images.fetch(options.background.image_url, accountId, path, signal);
  return path;
}
