import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { VideoBackgroundRemovalOptions } from '@vj/contracts';
import { AbortError, isAbortError, MediaError, probeMedia, ProcessFailedError, ProcessRunner, type CommandRunner } from '../media';
import { damageIn, forUser, truncationIn } from '../media/input-damage';
import { lastLine } from '../media/process-runner';
import { frameGeometry, MIN_SIDE } from './frame-geometry';
import { FrameMatter, type PendingMatte } from './frame-matter';
import { yuvMatrixFor } from './frame-sampler';
import { readFrames, writeFrame } from './frame-stream';
import { DEFAULT_MATTE } from './matte-builder';
import { variantFor, type Segmenter } from './matting-model';
import { decodeFramesArgs, encodeMatteArgs, type MatteFiles } from './matting-args';
import { DEFAULT_SMOOTHING } from './temporal-smoother';

export interface RemoveBackgroundRequest {
  inputPath: string;
  // Every file the job writes goes here; the caller owns the folder and removes it.
  workDir: string;
  options: Pick<VideoBackgroundRemovalOptions, 'output_codec' | 'refine_foreground_edges'>;
  // The chosen model's variants; each video uses the one closest to its shape.
  segmenters: readonly Segmenter[];
  maxSeconds: number;
  // The job's time limit, shared by all of its processes.
  timeoutMs: number;
  signal?: AbortSignal;
  ffmpegPath?: string;
  ffprobePath?: string;
  runner?: CommandRunner;
  // Sees every frame's alpha plane as it is encoded (tests compare it with the delivered file).
  onMatte?: (frameIndex: number, alpha: Uint8ClampedArray) => void;
}

export interface MattedFile {
  path: string;
  role: 'transparent' | 'rgb' | 'matte';
  contentType: 'video/webm' | 'video/mp4';
  fileExtension: 'webm' | 'mp4';
}

export interface MattedVideo {
  files: MattedFile[];
  durationSeconds: number;
  frames: number;
  width: number;
  height: number;
}

// Used when a stream states no frame rate at all: the encoder still needs one to number frames.
const FALLBACK_FRAME_RATE = '25';

// Cuts the person (or the foreground) out of a video (api-v1.md, video-background-removal):
// decode | segment, smooth and refine in this process | encode, streamed frame by frame so memory
// stays flat however long the video. Fails with a MediaError carrying the job error code, or an
// AbortError when the signal fires.
export async function removeBackground(request: RemoveBackgroundRequest): Promise<MattedVideo> {
  const files = outputFiles(request);
  try {
    return await new BackgroundRemoval(request, files).run();
  } catch (error) {
    await Promise.all(files.map((file) => rm(file.path, { force: true }))); // never upload a partial result
    if (error instanceof MediaError || isAbortError(error)) throw error;
    throw new MediaError('generation_failed', 'Removing the background failed', null, { cause: error });
  }
}

function outputFiles({ workDir, options }: RemoveBackgroundRequest): MattedFile[] {
  if (options.output_codec === 'vp9') {
    return [{ path: join(workDir, 'transparent.webm'), role: 'transparent', contentType: 'video/webm', fileExtension: 'webm' }];
  }
  return [
    { path: join(workDir, 'rgb.mp4'), role: 'rgb', contentType: 'video/mp4', fileExtension: 'mp4' },
    { path: join(workDir, 'matte.mp4'), role: 'matte', contentType: 'video/mp4', fileExtension: 'mp4' },
  ];
}

class BackgroundRemoval {
  private readonly runner: CommandRunner;
  private readonly ffmpegPath: string;
  private readonly deadline: number;

  constructor(
    private readonly request: RemoveBackgroundRequest,
    private readonly files: MattedFile[],
  ) {
    this.runner = request.runner ?? new ProcessRunner();
    this.ffmpegPath = request.ffmpegPath ?? 'ffmpeg';
    this.deadline = Date.now() + request.timeoutMs;
  }

  async run(): Promise<MattedVideo> {
    const { request } = this;
    request.signal?.throwIfAborted();
    await mkdir(request.workDir, { recursive: true });
    const probe = await probeMedia(this.runner, {
      ffprobePath: request.ffprobePath ?? 'ffprobe',
      inputPath: request.inputPath,
      timeoutMs: this.remainingMs(),
      signal: request.signal,
    });
    const video = probe.video;
    if (!video || video.width <= 0 || video.height <= 0) {
      throw new MediaError('invalid_file', 'The file has no video stream', [
        { type: 'no_video_stream', message: 'The file contains no video stream to cut out' },
      ]);
    }
    this.checkLength(probe.durationSeconds ?? 0);
    if (Math.min(video.width, video.height) < MIN_SIDE) {
      throw new MediaError('input_validation', `The video is smaller than ${MIN_SIDE}x${MIN_SIDE} pixels`, [
        { type: 'video_too_small', message: `The picture is ${video.width}x${video.height}; at least ${MIN_SIDE} pixels a side are needed`, field: 'video_url' },
      ]);
    }
    const geometry = frameGeometry(video);
    const frameRate = video.frameRate ?? FALLBACK_FRAME_RATE;
    const fps = video.fps ?? Number(FALLBACK_FRAME_RATE);
    const segmenter = variantFor(request.segmenters, geometry.width, geometry.height);
    const matter = new FrameMatter(segmenter, {
      width: geometry.width,
      height: geometry.height,
      matrix: yuvMatrixFor(video.colorSpace, geometry.height),
      matte: { ...DEFAULT_MATTE, refine: request.options.refine_foreground_edges },
      smoothing: DEFAULT_SMOOTHING,
    });
    const frames = await this.stream(matter, {
      decode: decodeFramesArgs({ inputPath: request.inputPath, geometry, maxSeconds: request.maxSeconds }),
      encode: encodeMatteArgs({
        inputPath: request.inputPath,
        geometry,
        frameRate,
        fps,
        audio: probe.audio,
        colorSpace: video.colorSpace,
        files: this.matteFiles(),
      }),
    });
    const durationSeconds = frames / fps;
    this.checkLength(durationSeconds);
    return { files: this.files, durationSeconds, frames, width: geometry.width, height: geometry.height };
  }

  private matteFiles(): MatteFiles {
    const [first, second] = this.files;
    return first.role === 'transparent' ? { codec: 'vp9', webmPath: first.path } : { codec: 'h264', rgbPath: first.path, mattePath: second.path };
  }

  // decoder | this process | encoder. The first failure stops all three; a decoder failure is the
  // input's fault whatever else failed after it.
  private async stream(matter: FrameMatter, args: { decode: string[]; encode: string[] }): Promise<number> {
    const { request } = this;
    const stop = new AbortController();
    const forward = (): void => stop.abort(request.signal?.reason);
    request.signal?.addEventListener('abort', forward, { once: true });
    const decoded = new PassThrough({ highWaterMark: matter.yuvBytes });
    const toEncoder = new PassThrough({ highWaterMark: matter.yuvaBytes });
    const timeoutMs = this.remainingMs();
    let firstError: unknown;
    const failed = (error: unknown): never => {
      firstError ??= error;
      stop.abort();
      throw error;
    };
    const decoding = this.runner.run({ file: this.ffmpegPath, args: args.decode }, { timeoutMs, signal: stop.signal, stdout: decoded }).catch(failed);
    const encoding = this.runner.run({ file: this.ffmpegPath, args: args.encode }, { timeoutMs, signal: stop.signal, stdin: toEncoder }).catch(failed);
    const matting = (async () => {
      let count = 0;
      const emit = async (pending: PendingMatte): Promise<void> => {
        const alpha = await matter.finish(pending);
        request.onMatte?.(count, alpha);
        count++;
        await writeFrame(toEncoder, pending.frame, stop.signal);
      };
      let pending: PendingMatte | null = null;
      for await (const frame of readFrames(decoded, matter.yuvBytes, matter.yuvaBytes)) {
        stop.signal.throwIfAborted();
        const next = matter.start(frame);
        if (pending) await emit(pending);
        pending = next;
      }
      if (pending) await emit(pending);
      toEncoder.end();
      return count;
    })().catch(failed);
    const [decoder, encoder, counted] = await Promise.allSettled([decoding, encoding, matting]);
    request.signal?.removeEventListener('abort', forward);
    if (request.signal?.aborted) throw new AbortError('The job was cancelled', { cause: request.signal.reason });
    if (decoder.status === 'rejected') throw this.decoderFailure(decoder.reason);
    if (firstError !== undefined) throw this.encoderFailure(firstError, encoder);
    const truncated = truncationIn((decoder as PromiseFulfilledResult<{ stderrTail: string }>).value.stderrTail);
    if (truncated) throw this.invalidFile('The file is damaged or truncated', 'damaged_file', truncated);
    const frames = (counted as PromiseFulfilledResult<number>).value;
    if (frames === 0) throw this.invalidFile('The video stream holds no pictures', 'undecodable_video', 'Decoding the video stream produced no frames');
    return frames;
  }

  private decoderFailure(error: unknown): unknown {
    if (!(error instanceof ProcessFailedError)) return error;
    return this.invalidFile('The video stream could not be decoded', 'undecodable_video', lastLine(error.stderrTail));
  }

  // The encoder reads the input again for its sound: damage there is the input's fault too.
  private encoderFailure(error: unknown, encoder: PromiseSettledResult<unknown>): unknown {
    const failure = encoder.status === 'rejected' ? encoder.reason : error;
    const damage = failure instanceof ProcessFailedError ? damageIn(failure.stderrTail) : null;
    return damage ? this.invalidFile('The file is damaged or truncated', 'damaged_file', damage) : failure;
  }

  private invalidFile(message: string, type: string, line: string): MediaError {
    return new MediaError('invalid_file', message, [{ type, message: forUser(line, this.request.inputPath) }]);
  }

  private checkLength(seconds: number): void {
    const limit = this.request.maxSeconds;
    // Half a frame or so of slack: containers round their durations.
    if (seconds <= limit + 0.05) return;
    throw new MediaError('input_validation', `The video is longer than ${limit} seconds`, [
      { type: 'video_too_long', message: `The video lasts ${Math.round(seconds * 10) / 10} s; the limit is ${limit} s`, field: 'video_url' },
    ]);
  }

  private remainingMs(): number {
    const ms = this.deadline - Date.now();
    if (ms <= 0) throw new MediaError('timeout', `Removing the background took longer than ${this.request.timeoutMs} ms`);
    return ms;
  }
}
