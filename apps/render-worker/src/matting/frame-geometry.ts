import type { VideoStreamProbe } from '../media';
import type { PictureLimit } from '../media/input-fence';

// The picture the matting job decodes, mattes and encodes: upright, within the size limit, and with
// even sides (4:2:0 chroma and libx264 need them).

export interface FrameGeometry {
  width: number;
  height: number;
  // ffmpeg's -vf chain, rotation included (the decoder runs with -noautorotate, so the frame size
  // computed here is the one that comes out); empty when the decoded picture is already right.
  filters: string[];
}

// Clockwise quarter turns as ffmpeg filters.
const ROTATIONS: Record<number, string[]> = { 0: [], 90: ['transpose=clock'], 180: ['hflip', 'vflip'], 270: ['transpose=cclock'] };

// Inputs above 3840x2160 are scaled down to fit it, either way up (decision 0014).
export const MAX_LONG_SIDE = 3840;
export const MAX_SHORT_SIDE = 2160;
// Below this the model has nothing to read; such a picture is refused, not cropped to nothing.
export const MIN_SIDE = 16;
// Above this a picture is refused before anything is decoded (input_validation), and the decoders'
// -max_pixels hold them to it whatever the header says: 4096 pixels a side and 4096x2304 in all,
// either way up. A 4096x2304 frame is about 14 MiB as yuv420p.
export const MAX_MATTING_PICTURE: PictureLimit = { maxSide: 4096, maxPixels: 4096 * 2304 };
// The least a side is scaled to: 4:2:0 chroma and libx264 need even sides, and 0 is none. Within the
// limits a side goes no lower than 14 (16 pixels beside 4096, scaled to 3840).
const MIN_SCALED_SIDE = 2;

export function frameGeometry(video: Pick<VideoStreamProbe, 'width' | 'height' | 'rotation'>): FrameGeometry {
  const turned = video.rotation === 90 || video.rotation === 270;
  const width = turned ? video.height : video.width;
  const height = turned ? video.width : video.height;
  const scale = Math.min(1, MAX_LONG_SIDE / Math.max(width, height), MAX_SHORT_SIDE / Math.min(width, height));
  const rotate = ROTATIONS[video.rotation] ?? [];
  if (scale < 1) {
    const scaled = { width: even(width * scale), height: even(height * scale) };
    return { ...scaled, filters: [...rotate, `scale=${scaled.width}:${scaled.height}:flags=area`] };
  }
  const cropped = { width: even(width), height: even(height) };
  // An odd last row or column is cropped rather than the whole picture resampled.
  const odd = cropped.width !== width || cropped.height !== height;
  return { ...cropped, filters: [...rotate, ...(odd ? [`crop=${cropped.width}:${cropped.height}:0:0`] : [])] };
}

// The epsilon keeps a side scaled exactly to the limit (3839.9999999999995) from losing 2 pixels.
export function even(size: number): number {
  return Math.max(MIN_SCALED_SIDE, Math.floor(size / 2 + 1e-9) * 2);
}
