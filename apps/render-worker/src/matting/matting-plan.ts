import type { MediaProbe, VideoStreamProbe } from '../media';
import { frameGeometry, type FrameGeometry } from './frame-geometry';
import { variantFor, type Segmenter } from './matting-model';
import { decodeFramesArgs, encodeMatteArgs, type MatteFiles } from './matting-args';
import { yuvMatrixFor, type YuvMatrix } from './model-input';

// How one input is decoded, matted and encoded, from its probe and the job's options alone.
export interface MattingPlan {
  // The variant of the model closest to the frame's shape.
  segmenter: Segmenter;
  geometry: FrameGeometry;
  fps: number;
  matrix: YuvMatrix;
  // The alpha frames the encoder reads: at the model's size, or the frame's when refined.
  alpha: { width: number; height: number };
  decodeArgs: string[];
  encodeArgs: string[];
  // Bytes of the decoder's model-size frame (yuv444p) and full-size luma (0 when not refined).
  smallBytes: number;
  lumaBytes: number;
}

export interface MattingRequest {
  inputPath: string;
  maxSeconds: number;
  refine: boolean;
  segmenters: readonly Segmenter[];
  files: MatteFiles;
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
  const { inputPath, maxSeconds } = request;
  const storedSize = { width: video.width, height: video.height };
  return {
    segmenter,
    geometry,
    fps,
    matrix: yuvMatrixFor(video.colorSpace, geometry.height),
    alpha,
    decodeArgs: decodeFramesArgs({ inputPath, storedSize, geometry, maxSeconds, modelInput, fullLuma: request.refine }),
    encodeArgs: encodeMatteArgs({ inputPath, storedSize, geometry, maxSeconds, frameRate, fps, audio: probe.audio, colorSpace: video.colorSpace, alpha, files: request.files }),
    smallBytes: modelInput.width * modelInput.height * 3,
    lumaBytes: request.refine ? geometry.width * geometry.height : 0,
  };
}
