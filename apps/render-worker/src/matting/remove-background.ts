import { createWriteStream, type WriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { CompositeBackground, VideoBackgroundRemovalOptions } from '@vj/contracts';
import { MediaError, ProcessFailedError, ProcessRunner, type CommandRunner } from '../media';
import { DoubtfulMediaError } from '../media/media-error';
import { Deadline } from '../media/deadline';
import { damagedInputError, damageIn, forUser, truncationIn } from '../media/input-damage';
import { outOfMemory, refusalIn } from '../media/input-refusal';
import { openJobInput } from '../media/open-job-input';
import type { MediaProbe } from '../media/parse-probe';
import { lastLine } from '../media/process-runner';
import { stillImage } from '../media/still-image';
import { MAX_MATTING_PICTURE, MIN_SIDE } from './frame-geometry';
import { DEFAULT_DROPOUT_HOLD } from './dropout-hold';
import { FrameMatter, type PendingMatte } from './frame-matter';
import type { MatteQuality } from './matte-quality';
import { FramePipelineFailure, runFramePipeline, type FrameStage } from './frame-pipeline';
import { DEFAULT_PLATE, type PlateSettings, type PlateSnapshot } from './background-plate';
import { DEFAULT_MATTE } from './matte-builder';
import type { Segmenter } from './matting-model';
import { keptMatteLimit, MAX_KEPT_CHANNELS, type CompositeBehind, type FrameWindow, type MatteFiles } from './matting-args';
import { mattingPlan, type MattingPlan } from './matting-plan';
import { capped, PngSequenceZip, ResultTooLargeError, resultTooLarge } from './png-sequence-zip';
import { DEFAULT_TRACKING, type TrackingSettings } from './region-tracker';
import type { Segment, SegmentTimes } from './segment-plan';
import { DEFAULT_STILL_OBJECTS } from './still-object-filter';
import { DEFAULT_SMOOTHING } from './temporal-smoother';

export interface RemoveBackgroundRequest {
  inputPath: string;
  // Every file the job writes goes here; the caller owns the folder and removes it.
  workDir: string;
  // The worker's probe of this input, taken when it was measured: not run again.
  probe?: MediaProbe;
  options: Pick<VideoBackgroundRemovalOptions, 'output_codec' | 'refine_foreground_edges' | 'background'>;
  // The fetched and checked image of `background: { image_url }` (background-image.ts).
  backgroundImagePath?: string;
  // The chosen model's variants; each video uses the one closest to its shape.
  segmenters: readonly Segmenter[];
  maxSeconds: number;
  // Each result file stops there, and the job fails with input_validation (DEFAULT_MAX_RESULT_BYTES).
  maxResultBytes?: number;
  // The job's time limit, shared by all of its processes.
  timeoutMs: number;
  signal?: AbortSignal;
  ffmpegPath?: string;
  ffprobePath?: string;
  runner?: CommandRunner;
  // Frames in flight between decoder and encoder (PIPELINE_DEPTH by default).
  depth?: number;
  // Use what the video tells beyond each frame (decisions 0041 and 0066): crops that follow the person, and
  // still objects taken out of the matte; on by default. Off, the plain per-frame model: every whole
  // frame, each mask smoothed and refined alone; the quality bench's baseline.
  tracking?: boolean;
  // Sees every frame's alpha as the encoder gets it (tests compare it with the delivered file): at
  // the model's size, or with refinement the frame's.
  onMatte?: (frameIndex: number, alpha: Uint8Array) => void;
  // The share of the expected frames matted so far, 0 to 1.
  onProgress?: (fraction: number) => void;
  // Exports (decision 0094): keep the alpha frames losslessly at this path (a segment keeps its
  // delivered frames', which the join puts together, decision 0106); or, for an export, encode the
  // input with the alpha frames kept at this path, without the model.
  keepMatteAt?: string;
  fromMatte?: string;
  // The number in the whole video of the input's first frame, from 1: a segment of a long video
  // (decision 0100) learns its background plate, and checks while tracking, on the whole run's schedule.
  firstFrame?: number;
  // What the background plate had learned before the input's first frame (a segment's), and a call
  // with what it has learned once each frame numbered in `afterFrames` (in the whole video) is finished.
  plateSeed?: PlateSnapshot;
  onPlate?: { afterFrames: readonly number[]; take: (frame: number, snapshot: PlateSnapshot) => void };
  // The background plate's settings where they differ from DEFAULT_PLATE: a plate pass over a frame
  // in N learns at its own rate (decision 0100).
  plateSettings?: Partial<PlateSettings>;
  // One segment of a long video whose whole file is the input (decision 0100): frames [matteFrom, to)
  // are matted, [from, to) delivered, in files without sound that segment-join.ts joins. Its frames are
  // numbered as in the whole video (firstFrame is matteFrom + 1 unless given). With its times
  // (segmentTimes), the input is read from the keyframe before the segment instead of from the start.
  segment?: Pick<Segment, 'matteFrom' | 'from' | 'to'> & { times?: SegmentTimes | null };
  // A plate pass (plate-pass.ts): the pipeline over one frame in `every` of the whole input, for the
  // plates onPlate takes; nothing is encoded and no file is written. onPlate's frames are numbered as
  // in the whole video (onMatte's index counts the pass's own), and the settings counted in seconds go
  // by the pass's own rate.
  pass?: { every: number };
}

// Frames in flight: enough that the encoder rarely waits for a model run, few enough to stay small.
export const PIPELINE_DEPTH = 4;

// BACKGROUND_REMOVAL_MAX_RESULT_BYTES's default.
export const DEFAULT_MAX_RESULT_BYTES = 4 * 1024 ** 3;

// A segment's PNG sequence is its PNGs back to back ('image/png', 'pngs'): the join puts them in the ZIP.
export interface MattedFile {
  path: string;
  role: 'transparent' | 'rgb' | 'matte' | 'frames' | 'composite';
  contentType: 'video/webm' | 'video/mp4' | 'video/quicktime' | 'application/zip' | 'image/png';
  fileExtension: 'webm' | 'mp4' | 'mov' | 'zip' | 'pngs';
}

export interface MattedVideo {
  files: MattedFile[];
  durationSeconds: number;
  frames: number;
  // The rate the files' frames are numbered at, as ffmpeg states it ("30000/1001").
  frameRate: string;
  width: number;
  height: number;
  // With keepMatteAt: false when the kept matte reached the result size limit and was removed (the job
  // keeps nothing to export; its own files are whole).
  matteKept?: boolean;
  // The mattes' figures for the quality report (decision 0096); an export, which mattes nothing, has none.
  quality?: MatteQuality;
}

// Cuts the person (or the foreground) out of a video (docs/spec/api-v1.md, video-background-removal):
// decode | segment, smooth and refine in this process | encode, streamed frame by frame so memory
// stays flat however long the video. Fails with a MediaError carrying the job error code when the
// input is at fault or the limits are passed, an AbortError when the signal fires, and any other
// error when the failure is ours: that one is retried, and reported generation_failed after the
// last attempt (docs/spec/api-v1.md: "generation_failed ... after retries").
export async function removeBackground(request: RemoveBackgroundRequest): Promise<MattedVideo> {
  const outputs = outputsOf(request);
  try {
    return await new BackgroundRemoval(request, outputs).run();
  } catch (error) {
    await Promise.all(outputs.files.map((file) => rm(file.path, { force: true }))); // never upload a partial result
    throw error;
  }
}

// What the encoder puts behind the person: an image by the path it was fetched to.
function behind(background: CompositeBackground, imagePath: string | undefined): CompositeBehind {
  if (!('image_url' in background)) return background;
  if (!imagePath) throw new Error('a background image_url reached the encoder without its fetched image');
  return { imagePath };
}

// What the job delivers, and the same files as the encoder writes them.
interface Outputs {
  files: MattedFile[];
  // Null for a plate pass.
  encoded: MatteFiles | null;
}

function outputsOf({ workDir, options, backgroundImagePath, segment, pass }: RemoveBackgroundRequest): Outputs {
  if (pass) return { files: [], encoded: null };
  const file = (stem: string, fileExtension: MattedFile['fileExtension'], role: MattedFile['role'], contentType: MattedFile['contentType']): MattedFile => ({
    path: join(workDir, `${stem}.${fileExtension}`),
    role,
    contentType,
    fileExtension,
  });
  // On a background the person is one opaque H.264 MP4, whatever output_codec says (the API allows
  // only h264 with it).
  if (options.background) {
    const composite = file('composite', 'mp4', 'composite', 'video/mp4');
    return { files: [composite], encoded: { codec: 'composite', mp4Path: composite.path, background: behind(options.background, backgroundImagePath) } };
  }
  const codec = options.output_codec;
  switch (codec) {
    case 'vp9': {
      const webm = file('transparent', 'webm', 'transparent', 'video/webm');
      return { files: [webm], encoded: { codec, webmPath: webm.path } };
    }
    case 'prores': {
      const mov = file('transparent', 'mov', 'transparent', 'video/quicktime');
      return { files: [mov], encoded: { codec, movPath: mov.path } };
    }
    case 'h264': {
      const [rgb, matte] = [file('rgb', 'mp4', 'rgb', 'video/mp4'), file('matte', 'mp4', 'matte', 'video/mp4')];
      return { files: [rgb, matte], encoded: { codec, rgbPath: rgb.path, mattePath: matte.path } };
    }
    case 'png_sequence':
      // The sound waits beside the ZIP until it goes in (png-sequence-zip.ts).
      return {
        files: [segment ? file('frames', 'pngs', 'frames', 'image/png') : file('frames', 'zip', 'frames', 'application/zip')],
        encoded: { codec, audioPath: join(workDir, 'audio.wav') },
      };
    default:
      // A codec this worker does not know (a newer gateway in a rolling deploy): never another's files.
      throw new Error(`unknown output_codec ${String(codec satisfies never)}`);
  }
}

class BackgroundRemoval {
  private readonly runner: CommandRunner;
  private readonly ffmpegPath: string;
  private readonly deadline: Deadline;
  private readonly tracking: TrackingSettings | null;
  private readonly maxResultBytes: number;
  private readonly window: FrameWindow | undefined;
  private readonly firstFrame: number | undefined;
  // A plate pass's step between the frames it sees; 1 otherwise.
  private readonly every: number;

  constructor(
    private readonly request: RemoveBackgroundRequest,
    private readonly outputs: Outputs,
  ) {
    this.runner = request.runner ?? new ProcessRunner();
    this.ffmpegPath = request.ffmpegPath ?? 'ffmpeg';
    this.deadline = new Deadline(request.timeoutMs, 'Removing the background');
    this.tracking = request.tracking === false ? null : DEFAULT_TRACKING;
    this.maxResultBytes = request.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
    const { segment } = request;
    if (segment && !validSegment(segment)) throw new RangeError('a segment mattes whole frames from its warm-up to its end, at times in that order');
    if (segment && request.fromMatte) throw new Error('an export is not cut into segments');
    if (request.pass && (segment || request.fromMatte || request.keepMatteAt)) throw new Error('a plate pass goes over the whole input and encodes nothing');
    this.every = request.pass?.every ?? 1;
    this.window = segment && { start: segment.matteFrom, warmup: segment.from - segment.matteFrom, end: segment.to, ...(segment.times && { times: segment.times }) };
    this.firstFrame = request.firstFrame ?? (segment && segment.matteFrom + 1);
  }

  async run(): Promise<MattedVideo> {
    const { request } = this;
    // A picture over the limit is refused from the probe, before anything is decoded; the decoders'
    // -max_pixels catch a header that lies.
    const probe = await openJobInput(this.runner, { ...request, pictureLimit: MAX_MATTING_PICTURE }, this.deadline);
    const video = probe.video;
    if (!video || video.width <= 0 || video.height <= 0) {
      throw new MediaError('invalid_file', 'The file has no video stream', [
        { type: 'no_video_stream', message: 'The file contains no video stream to cut out' },
      ]);
    }
    this.checkLength(probe.durationSeconds ?? 0);
    if (probe.audio && probe.audio.channels > MAX_KEPT_CHANNELS) {
      throw new MediaError('input_validation', `The audio has more than ${MAX_KEPT_CHANNELS} channels`, [
        { type: 'too_many_audio_channels', message: `The audio has ${probe.audio.channels} channels; at most ${MAX_KEPT_CHANNELS} can be kept`, field: 'video_url' },
      ]);
    }
    if (Math.min(video.width, video.height) < MIN_SIDE) {
      throw new MediaError('input_validation', `The video is smaller than ${MIN_SIDE}x${MIN_SIDE} pixels`, [
        { type: 'video_too_small', message: `The picture is ${video.width}x${video.height}; at least ${MIN_SIDE} pixels a side are needed`, field: 'video_url' },
      ]);
    }
    const plan = mattingPlan(probe, video, {
      inputPath: request.inputPath,
      maxSeconds: request.maxSeconds,
      refine: request.options.refine_foreground_edges,
      segmenters: request.segmenters,
      tracking: this.tracking ? { sourceScale: this.tracking.sourceScale } : null,
      files: this.outputs.encoded,
      maxFileBytes: this.maxResultBytes,
      ...(request.keepMatteAt && { keepMatteAt: request.keepMatteAt }),
      ...(request.fromMatte && { matteFrom: request.fromMatte }),
      ...(this.window && { window: this.window }),
      ...(request.pass && { every: this.every }),
    });
    const { width, height } = plan.geometry;
    const seenFps = plan.fps / this.every;
    if (request.fromMatte) {
      await this.encodeOnly(plan, probe);
      const durationSeconds = probe.durationSeconds ?? 0;
      return { files: this.outputs.files, durationSeconds, frames: Math.round(durationSeconds * plan.fps), frameRate: plan.frameRate, width, height };
    }
    const matter = new FrameMatter(plan.segmenter, {
      width,
      height,
      matrix: plan.matrix,
      matte: { ...DEFAULT_MATTE, refine: request.options.refine_foreground_edges },
      smoothing: DEFAULT_SMOOTHING,
      tracking: this.tracking && plan.side ? { settings: this.tracking, sideSize: plan.side, cropSegmenter: plan.cropSegmenter } : null,
      hold: this.tracking ? { settings: DEFAULT_DROPOUT_HOLD, fps: seenFps } : null,
      stillObjects: this.tracking ? { settings: DEFAULT_STILL_OBJECTS, fps: seenFps } : null,
      plate: this.tracking ? { ...DEFAULT_PLATE, ...request.plateSettings } : null,
      depth: this.request.depth ?? PIPELINE_DEPTH,
      ...(this.firstFrame !== undefined && { firstFrame: this.firstFrame }),
      ...(request.plateSeed && { plateSeed: request.plateSeed }),
      ...(this.window && { warmupFrames: this.window.warmup }),
    });
    const matted = await this.stream(matter, plan, probe);
    if (request.pass) return { files: [], durationSeconds: probe.durationSeconds ?? 0, frames: matted, frameRate: plan.frameRate, width, height };
    this.checkLength(((this.window?.start ?? 0) + matted) / plan.fps);
    if (this.window && matted !== this.window.end - this.window.start) throw new SegmentFramesError(matted, this.window.end - this.window.start);
    // A segment delivers its frames after the warm-up.
    const frames = matted - (this.window?.warmup ?? 0);
    const durationSeconds = frames / plan.fps;
    return {
      files: this.outputs.files,
      durationSeconds,
      frames,
      frameRate: plan.frameRate,
      width,
      height,
      quality: matter.quality,
      ...(request.keepMatteAt && { matteKept: await this.keptWhole(request.keepMatteAt) }),
    };
  }

  // A file that reached the limit was cut short (the encoder's -fs, the ZIP's own count), and the
  // encoder then stops reading: the result is refused whether or not the pipeline noticed. (With two
  // files, as h264 writes, ffmpeg 5.1 stops neither until both reach it; each is capped by its bitrate.)
  private async reachedLimit(): Promise<boolean> {
    const sizes = await Promise.all(this.outputs.files.map((file) => stat(file.path).then((info) => info.size, () => 0)));
    return sizes.some((size) => size >= this.maxResultBytes);
  }

  // A kept matte is held to its own limit (the encoder's -fs): one that reached it was cut short, so an
  // export of it would be too. Removed: the job keeps nothing rather than half.
  private async keptWhole(path: string): Promise<boolean> {
    const size = await stat(path).then((info) => info.size, () => 0);
    if (size > 0 && size < keptMatteLimit(this.maxResultBytes)) return true;
    await rm(path, { force: true });
    return false;
  }

  private tooLarge(): MediaError {
    return resultTooLarge(this.maxResultBytes);
  }

  // An export: the encoder alone, its alpha from the kept matte, its pictures and sound from the input.
  private async encodeOnly(plan: MattingPlan, probe: MediaProbe): Promise<void> {
    const { request } = this;
    const { files, encoded } = this.outputs;
    if (!encoded || !plan.encodeArgs) throw new Error('an export encodes');
    const zip = encoded.codec === 'png_sequence' ? new PngSequenceZip(files[0].path, this.maxResultBytes) : null;
    try {
      await this.runner.run({ file: this.ffmpegPath, args: plan.encodeArgs }, { timeoutMs: this.deadline.remainingMs(), signal: request.signal, stdout: zip?.frames });
      if (zip) await zip.finish(encoded.codec === 'png_sequence' && probe.audio ? encoded.audioPath : null);
      request.onProgress?.(1);
      if (await this.reachedLimit()) throw this.tooLarge();
    } catch (error) {
      zip?.abort();
      if (error instanceof ResultTooLargeError || (await this.reachedLimit())) throw this.tooLarge();
      throw this.encoderFailure(error);
    }
  }

  // decoder | segment, smooth, refine here | encoder, streamed (frame-pipeline.ts).
  private async stream(matter: FrameMatter, plan: MattingPlan, probe: MediaProbe): Promise<number> {
    const { request } = this;
    const probedSeconds = probe.durationSeconds ?? 0;
    let index = 0;
    const expectedFrames = this.window ? this.window.end - this.window.start : Math.max(1, Math.ceil((plan.fps * Math.min(probedSeconds, request.maxSeconds)) / this.every));
    const stage: FrameStage<PendingMatte> = {
      // The decoder's one output is the side frame when the model's frame is made from it.
      start: (frame, side) => (plan.smallFromSide ? matter.start(undefined, frame) : matter.start(frame, side)),
      finish: async (pending) => {
        const alpha = await matter.finish(pending);
        const frame = (this.firstFrame ?? 1) + index * this.every;
        if (request.onPlate?.afterFrames.includes(frame)) {
          const snapshot = matter.plateSnapshot();
          if (snapshot) request.onPlate.take(frame, snapshot);
        }
        // Counted apart from the optional call: `onMatte?.(index++)` counts nothing when there is none.
        request.onMatte?.(index, alpha);
        index++;
        request.onProgress?.(index / expectedFrames);
        return alpha;
      },
    };
    const { files, encoded } = this.outputs;
    const pngs = encoded?.codec === 'png_sequence' && this.window ? new CappedFile(files[0].path, this.maxResultBytes) : null;
    const zip = encoded?.codec === 'png_sequence' && !pngs ? new PngSequenceZip(files[0].path, this.maxResultBytes) : null;
    const zipAudio = encoded?.codec === 'png_sequence' && probe.audio ? encoded.audioPath : null;
    try {
      const { frames, decoder } = await runFramePipeline({
        runner: this.runner,
        ffmpegPath: this.ffmpegPath,
        decodeArgs: plan.decodeArgs,
        encodeArgs: plan.encodeArgs,
        frameBytes: plan.smallFromSide ? plan.sideBytes : plan.smallBytes,
        sideFrameBytes: plan.smallFromSide ? undefined : plan.sideBytes || undefined,
        sideToEncoder: plan.sideIsPicture,
        alphaBytes: plan.alpha.width * plan.alpha.height,
        encoderOutput: zip?.frames ?? pngs?.input ?? undefined,
        warmupFrames: this.window?.warmup ?? 0,
        stage,
        depth: request.depth ?? PIPELINE_DEPTH,
        timeoutMs: this.deadline.remainingMs(),
        signal: request.signal,
      });
      // ffmpeg drops a picture over -max_pixels with an error and carries on: a shorter result must
      // not come back as the video.
      const refused = refusalIn(decoder.stderrTail, request.inputPath, MAX_MATTING_PICTURE);
      if (refused) throw refused;
      const truncated = truncationIn(decoder.stderrTail);
      if (truncated) throw damagedInputError(truncated, request.inputPath);
      // A segment is checked against its plan instead (run).
      if (frames === 0 && !this.window) throw this.invalidFile('The video stream holds no pictures', 'undecodable_video', 'Decoding the video stream produced no frames');
      // A still the probe could not tell from a video (a container that does not say how long it is).
      if (frames === 1 && !this.window && !request.pass) throw stillImage('Decoding the video stream produced a single frame');
      await pngs?.written;
      if (zip) {
        await zip.finish(zipAudio);
        if (zip.frameCount !== frames) throw new Error(`the PNG sequence holds ${zip.frameCount} pictures of ${frames}`);
      }
      if (await this.reachedLimit()) throw this.tooLarge();
      return frames;
    } catch (error) {
      zip?.abort();
      pngs?.abort();
      if (error instanceof ResultTooLargeError) throw this.tooLarge();
      if (!(error instanceof FramePipelineFailure)) throw error;
      if (error.reason instanceof ResultTooLargeError || (await this.reachedLimit())) throw this.tooLarge();
      if (error.part === 'decoder') throw this.decoderFailure(error.reason);
      if (error.part === 'encoder') throw this.encoderFailure(error.reason);
      throw error.reason;
    }
  }

  // The decoder's arguments are fixed by the probe, so its failing exit is the input's fault, and so
  // is running out of memory: -max_pixels bounds its pictures, so what it holds is what the input
  // asks for. Our own kills (time limit, cancel) never arrive here as a ProcessFailedError: a
  // SIGKILL is the kernel's out-of-memory killer. Both that and a crash are doubtful: retried, and
  // the input's fault when they happen again on the last attempt.
  private decoderFailure(error: unknown): unknown {
    if (!(error instanceof ProcessFailedError)) return error;
    const refused = refusalIn(error.stderrTail, this.request.inputPath, MAX_MATTING_PICTURE);
    if (refused) return refused;
    if (error.exitSignal === 'SIGKILL') return outOfMemory('The decoder was stopped for running out of memory');
    if (error.exitSignal !== null) {
      return new DoubtfulMediaError('invalid_file', 'The decoder crashed on the video', [{ type: 'decoder_crashed', message: `the decoder stopped with ${error.exitSignal}` }]);
    }
    return this.invalidFile('The video stream could not be decoded', 'undecodable_video', lastLine(error.stderrTail));
  }

  // The encoder reads the input again, fenced like the decoder, for the sound and, unless the worker
  // hands it the pictures, the picture: a refusal or damage there is the input's fault too.
  private encoderFailure(error: unknown): unknown {
    if (!(error instanceof ProcessFailedError)) return error;
    const damage = damageIn(error.stderrTail);
    return refusalIn(error.stderrTail, this.request.inputPath, MAX_MATTING_PICTURE) ?? (damage ? damagedInputError(damage, this.request.inputPath) : error);
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
}

// A segment that did not decode to the frames its plan counted: a seek that landed late (a container
// whose index lies), or packets that are not one frame each. Ours, not the input's: the caller can run
// the segment again counted by number, or the whole video in one run; never delivered short or long.
export class SegmentFramesError extends Error {
  constructor(
    readonly matted: number,
    readonly planned: number,
  ) {
    super(`the segment decoded to ${matted} frames where its plan counted ${planned}`);
    this.name = 'SegmentFramesError';
  }
}

function validSegment({ matteFrom, from, to, times }: NonNullable<RemoveBackgroundRequest['segment']>): boolean {
  const frames = [matteFrom, from, to].every(Number.isSafeInteger) && matteFrom >= 0 && matteFrom <= from && from < to;
  if (!times) return frames;
  const cuts = [times.start, times.delivered, times.end, ...(times.seek === null ? [] : [times.seek])];
  return frames && cuts.every(Number.isFinite) && times.start <= times.delivered && times.delivered < times.end;
}

// A segment's PNGs as the encoder writes them, held to the result's size limit as they are written.
class CappedFile {
  readonly input: Writable;
  readonly written: Promise<void>;
  private readonly file: WriteStream;

  constructor(path: string, maxBytes: number) {
    this.file = createWriteStream(path);
    const counted = capped(maxBytes);
    this.input = counted;
    this.written = pipeline(counted, this.file);
    // Awaited once the encoder is done; a failure shows in its writes until then.
    this.written.catch(() => undefined);
  }

  abort(): void {
    this.input.destroy();
    this.file.destroy();
  }
}
