import type { MediaProbe, VideoStreamProbe } from '../media';
import { frameGeometry, type FrameGeometry } from './frame-geometry';
import { yuvMatrixFor, type YuvMatrix } from './model-input';
import { variantFor, type Segmenter } from './matting-model';
import { decodeFramesArgs, encodeMatteArgs, type MatteFiles } from './matting-args';

// How one input is decoded, read and encoded, from its probe alone.
export interface MattingPlan {
  segmenter: Segmenter | undefined;
  geometry: FrameGeometry;
  fps: number;
  matrix: YuvMatrix;
  decodeArgs: string[];
  encodeArgs: string[];
  // Bytes of a decoded yuv420p frame and of the yuva420p frame the encoder reads.
  yuvBytes: number;
  yuvaBytes: number;
}

// Used when a stream states no frame rate at all: the encoder still needs one to number frames.
const FALLBACK_FRAME_RATE = '25';

// With `segmenters` (a model's variants), the one closest to the frame's shape is chosen and the
// decoder also writes every frame scaled to its input; without, frames only (the bench baseline).
export function mattingPlan(
  probe: MediaProbe,
  video: VideoStreamProbe,
  inputPath: string,
  maxSeconds: number,
  files: MatteFiles,
  segmenters: readonly Segmenter[] = [],
): MattingPlan {
  const geometry = frameGeometry(video);
  const segmenter = segmenters.length > 0 ? variantFor(segmenters, geometry.width, geometry.height) : undefined;
  const modelInput = segmenter && { width: segmenter.spec.width, height: segmenter.spec.height };
  const frameRate = video.frameRate ?? FALLBACK_FRAME_RATE;
  const fps = video.fps ?? Number(FALLBACK_FRAME_RATE);
  const pixels = geometry.width * geometry.height;
  return {
    segmenter,
    geometry,
    fps,
    matrix: yuvMatrixFor(video.colorSpace, geometry.height),
    decodeArgs: decodeFramesArgs({ inputPath, geometry, maxSeconds, modelInput }),
    encodeArgs: encodeMatteArgs({ inputPath, geometry, frameRate, fps, audio: probe.audio, colorSpace: video.colorSpace, files }),
    yuvBytes: (pixels * 3) / 2,
    yuvaBytes: (pixels * 5) / 2,
  };
}
