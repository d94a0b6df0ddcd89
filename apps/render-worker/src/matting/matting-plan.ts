import type { MediaProbe, VideoStreamProbe } from '../media';
import { even, frameGeometry, type FrameGeometry } from './frame-geometry';
import { cropVariant, variantFor, type Segmenter } from './matting-model';
import { halvesTo } from './halved-frame';
import { decodeFramesArgs, encodeMatteArgs, sameSize, type FrameWindow, type MatteFiles } from './matting-args';
import { yuvMatrixFor, type YuvMatrix } from './model-input';
import type { PictureSize } from './region-crop';

// How one input is decoded, matted and encoded, from its probe and the job's options alone.
export interface MattingPlan {
  // The variant of the model closest to the frame's shape, and the one that sees crops.
  segmenter: Segmenter;
  cropSegmenter: Segmenter;
  geometry: FrameGeometry;
  fps: number;
  // The rate the encoder numbers the frames at, as ffmpeg states it.
  frameRate: string;
  matrix: YuvMatrix;
  // The alpha frames the encoder reads: at the model's size, or the frame's when refined.
  alpha: { width: number; height: number };
  decodeArgs: string[];
  // None for a plate pass, which encodes nothing.
  encodeArgs: string[] | null;
  // The decoder's side frame (yuv420p; null for none): the crop source when tracking, at the
  // frame's own size when refining (its Y plane is the refinement's guide). At the frame's own size
  // it is also the picture the encoder encodes (decision 0051).
  side: PictureSize | null;
  sideIsPicture: boolean;
  // The decoder writes the side frame alone, and the worker halves it into the model's frame
  // (halved-frame.ts): a crop source exactly twice the model's input that is not the picture.
  smallFromSide: boolean;
  // Bytes of the decoder's model-size frame (yuv444p) and side frame (0 for none).
  smallBytes: number;
  sideBytes: number;
}

export interface MattingRequest {
  inputPath: string;
  maxSeconds: number;
  refine: boolean;
  segmenters: readonly Segmenter[];
  // Crop to the person, with this crop source's largest enlargement of the model's input; null: the
  // model always sees the whole frame.
  tracking: { sourceScale: number } | null;
  // Null for a plate pass (plate-pass.ts): nothing is encoded.
  files: MatteFiles | null;
  maxFileBytes: number;
  // Exports (decision 0094): keep the alpha frames in this file, or (an export) encode from the
  // ones kept in this one, the pictures decoded again from the input.
  keepMatteAt?: string;
  matteFrom?: string;
  // A segment of a long video: these frames only, and no sound.
  window?: FrameWindow;
  // A plate pass: one frame in `every`.
  every?: number;
}

// Used when a stream states no frame rate at all: the encoder still needs one to number frames.
const FALLBACK_FRAME_RATE = '25';

export function mattingPlan(probe: MediaProbe, video: VideoStreamProbe, request: MattingRequest): MattingPlan {
  const geometry = frameGeometry(video);
  const segmenter = variantFor(request.segmenters, geometry.width, geometry.height);
  const modelInput = { width: segmenter.spec.width, height: segmenter.spec.height };
  const alpha = request.refine ? { width: geometry.width, height: geometry.height } : modelInput;
  const frameRate = video.frameRate ?? FALLBACK_FRAME_RATE;
  const fps = video.fps ?? Number(FALLBACK_FRAME_RATE);
  const { inputPath, maxSeconds, window, every, files } = request;
  const storedSize = { width: video.width, height: video.height };
  const side = request.refine ? { width: geometry.width, height: geometry.height } : request.tracking ? cropSource(geometry, modelInput, request.tracking.sourceScale) : null;
  const sideIsPicture = side !== null && sameSize(side, geometry);
  const smallFromSide = side !== null && !sideIsPicture && halvesTo(side, modelInput);
  return {
    segmenter,
    cropSegmenter: cropVariant(request.segmenters),
    geometry,
    fps,
    frameRate,
    matrix: yuvMatrixFor(video.colorSpace, geometry.height),
    alpha,
    side,
    sideIsPicture,
    smallFromSide,
    decodeArgs: decodeFramesArgs({ inputPath, storedSize, geometry, maxSeconds, modelInput, side, smallFromSide, ...(window && { window }), ...(every !== undefined && { every }) }),
    encodeArgs: files && encodeMatteArgs({
      inputPath,
      storedSize,
      geometry,
      pictures: sideIsPicture && !request.matteFrom ? 'worker' : 'file',
      maxSeconds,
      frameRate,
      fps,
      audio: window ? null : probe.audio,
      colour: video,
      alpha,
      files,
      maxFileBytes: request.maxFileBytes,
      ...(request.keepMatteAt && { keepMatteAt: request.keepMatteAt }),
      ...(request.matteFrom && { matteFrom: request.matteFrom }),
      ...(window && { window }),
    }),
    smallBytes: modelInput.width * modelInput.height * 3,
    sideBytes: side ? (side.width * side.height * 3) / 2 : 0,
  };
}

// The frame scaled down to at most `sourceScale` times the model's input a side, with even sides
// for yuv420p.
function cropSource(geometry: PictureSize, model: PictureSize, sourceScale: number): PictureSize {
  const scale = Math.min(1, (sourceScale * model.width) / geometry.width, (sourceScale * model.height) / geometry.height);
  if (scale === 1) return { width: geometry.width, height: geometry.height };
  return { width: even(geometry.width * scale), height: even(geometry.height * scale) };
}
