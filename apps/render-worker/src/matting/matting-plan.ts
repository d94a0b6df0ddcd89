import type { MediaProbe, VideoStreamProbe } from '../media';
import { frameGeometry, type FrameGeometry } from './frame-geometry';
import { yuvMatrixFor, type YuvMatrix } from './frame-sampler';
import { decodeFramesArgs, encodeMatteArgs, type MatteFiles } from './matting-args';

// How one input is decoded, read and encoded, from its probe alone.
export interface MattingPlan {
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

export function mattingPlan(probe: MediaProbe, video: VideoStreamProbe, inputPath: string, maxSeconds: number, files: MatteFiles): MattingPlan {
  const geometry = frameGeometry(video);
  const frameRate = video.frameRate ?? FALLBACK_FRAME_RATE;
  const fps = video.fps ?? Number(FALLBACK_FRAME_RATE);
  const pixels = geometry.width * geometry.height;
  return {
    geometry,
    fps,
    matrix: yuvMatrixFor(video.colorSpace, geometry.height),
    decodeArgs: decodeFramesArgs({ inputPath, geometry, maxSeconds }),
    encodeArgs: encodeMatteArgs({ inputPath, geometry, frameRate, fps, audio: probe.audio, colorSpace: video.colorSpace, files }),
    yuvBytes: (pixels * 3) / 2,
    yuvaBytes: (pixels * 5) / 2,
  };
}
