import type { PlatePassWorkV1, SegmentPlanV1, SegmentWorkV1 } from '@vj/contracts';
import { join } from 'node:path';
import type { BackgroundImages } from '../matting/background-image';
import type { PlateSnapshot } from '../matting/background-plate';
import type { MattingModelRegistry } from '../matting/model-registry';
import { platePass } from '../matting/plate-pass';
import { removeBackground, type MattedVideo } from '../matting/remove-background';
import { joinSegments } from '../matting/segment-join';
import { segmentPlan, segmentTimes } from '../matting/segment-plan';
import { ProcessRunner, probeMedia } from '../media';
import { listKeyframes } from '../media/keyframes';
import type { MeasuredInput } from '../processing/ports';
import { fetchBackgroundImage, optionsOf, type BackgroundRemovalSettings } from '../processors/video-background-removal.processor';

export interface PieceSettings extends BackgroundRemovalSettings {
  // A video longer than this is run as pieces on many workers (decision 0101); absent: never.
  segmentAfterSeconds?: number;
  segmentSeconds: number;
  warmupSeconds: number;
}

// A segment's or a join's result, with the path of the alpha frames it kept for exports (decision
// 0106), or null where it kept none.
export type KeepingMatte = MattedVideo & { keptMattePath: string | null };

// A video's frames, counted from its packets, bounds how many a plan may hold.
const MAX_FRAMES_PER_SECOND = 60;

// The media of a long background removal's pieces (decision 0101): its plan, the plate pass, one
// segment and the join, each on the whole input as a local file. What they read and store in the
// bucket is RunPieceUseCase's.
export class BackgroundRemovalPieces {
  private readonly runner = new ProcessRunner();

  constructor(
    private readonly settings: PieceSettings,
    private readonly models: MattingModelRegistry,
    private readonly images: Pick<BackgroundImages, 'fetch'> | null = null,
  ) {}

  get timeLimitMs(): number {
    return this.settings.timeLimitMs;
  }

  // The segments a measured video is cut into, or null where it is matted whole: at its keyframes,
  // SEGMENT_SECONDS long with WARMUP_SECONDS of warm-up, each with its times where the packets state them.
  async plan(inputPath: string, measured: MeasuredInput, signal: AbortSignal): Promise<{ frames: number; fps: number; segments: SegmentPlanV1[] } | null> {
    const after = this.settings.segmentAfterSeconds;
    if (after === undefined || measured.seconds <= after) return null;
    const index = await listKeyframes(this.runner, {
      ffprobePath: this.settings.ffprobePath ?? 'ffprobe',
      inputPath,
      maxSeconds: this.settings.maxSeconds,
      maxFrames: Math.ceil((this.settings.maxSeconds + 1) * MAX_FRAMES_PER_SECOND) + 1,
      timeoutMs: this.settings.timeLimitMs,
      signal,
    });
    const fps = measured.probe?.video?.fps ?? index.frames / measured.seconds;
    const plan = segmentPlan({ frames: index.frames, fps, keyframes: index.keyframes, segmentSeconds: this.settings.segmentSeconds, warmupSeconds: this.settings.warmupSeconds });
    const segments = plan.map((segment) => ({
      index: segment.index,
      cut_from: segment.cutFrom,
      matte_from: segment.matteFrom,
      from: segment.from,
      to: segment.to,
      times: index.times ? segmentTimes(index.times, segment) : null,
    }));
    return { frames: index.frames, fps, segments };
  }

  // Hands each segment after the first its plate as the pass goes past its first matted frame;
  // `onPlate` must not block (it stores the plate in the background).
  async pass(work: PlatePassWorkV1, inputPath: string, workDir: string, signal: AbortSignal, onPlate: (index: number, plate: PlateSnapshot) => void): Promise<void> {
    await platePass({
      ...this.common(work, inputPath, workDir, signal),
      segmentStarts: work.segments.map((segment) => segment.matte_from),
      onPlate: (start, plate) => {
        for (const segment of work.segments) if (segment.index > 0 && segment.matte_from === start) onPlate(segment.index, plate);
      },
    });
  }

  // A segment keeps its delivered frames' alpha, as a whole run keeps all of them.
  async segment(work: SegmentWorkV1, inputPath: string, plate: PlateSnapshot | null, workDir: string, signal: AbortSignal): Promise<KeepingMatte> {
    const { segment } = work;
    const backgroundImagePath = await fetchBackgroundImage(this.images, optionsOf(work), work.account_id, workDir, signal);
    const keepMatteAt = this.keptMattePath(workDir);
    const matted = await removeBackground({
      ...this.common(work, inputPath, workDir, signal),
      ...(backgroundImagePath && { backgroundImagePath }),
      segment: { matteFrom: segment.matte_from, from: segment.from, to: segment.to, times: segment.times },
      ...(plate && { plateSeed: plate }),
      ...(keepMatteAt && { keepMatteAt }),
    });
    return { ...matted, keptMattePath: keepMatteAt && matted.matteKept !== false ? keepMatteAt : null };
  }

  // The segments' files made the job's, with the input's sound; their kept mattes (one per segment,
  // in order, where every segment kept one) made the job's kept matte.
  async join(inputPath: string, segments: MattedVideo[], workDir: string, signal: AbortSignal, keptMattes?: readonly string[]): Promise<KeepingMatte> {
    const { audio } = await probeMedia(this.runner, { ffprobePath: this.settings.ffprobePath ?? 'ffprobe', inputPath, timeoutMs: this.settings.timeLimitMs, signal });
    const keepMatteAt = this.keptMattePath(workDir);
    const joined = await joinSegments({
      inputPath,
      audio,
      segments,
      ...(keepMatteAt && { keepMatteAt, ...(keptMattes && { keptMattes }) }),
      workDir,
      maxSeconds: this.settings.maxSeconds,
      maxResultBytes: this.settings.maxResultBytes,
      timeoutMs: this.settings.timeLimitMs,
      signal,
      ...(this.settings.ffmpegPath && { ffmpegPath: this.settings.ffmpegPath }),
    });
    return { ...joined, keptMattePath: keepMatteAt && joined.matteKept === true ? keepMatteAt : null };
  }

  // Where a segment or the join keeps its matte; undefined where the worker keeps none
  // (BACKGROUND_REMOVAL_KEEP_MATTE=false).
  private keptMattePath(workDir: string): string | undefined {
    return this.settings.keepMatte === false ? undefined : join(workDir, 'kept-matte.mkv');
  }

  private common(work: PlatePassWorkV1 | SegmentWorkV1, inputPath: string, workDir: string, signal: AbortSignal) {
    const options = optionsOf(work);
    return {
      inputPath,
      workDir,
      options,
      segmenters: this.models.segmentersFor(options.subject_is_person),
      maxSeconds: this.settings.maxSeconds,
      maxResultBytes: this.settings.maxResultBytes,
      timeoutMs: this.settings.timeLimitMs,
      signal,
      ffmpegPath: this.settings.ffmpegPath,
      ffprobePath: this.settings.ffprobePath,
    };
  }
}
