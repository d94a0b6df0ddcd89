import { MediaError } from './media-error';
import type { VideoStreamProbe } from './parse-probe';

// A still image is not a video, whatever holds it: a picture file is refused by the fence
// (input-fence.ts); this catches one in a video container, from the probe.

// Codecs of picture files: a stream of them that does not say how long it lasts is a picture.
const IMAGE_CODECS = new Set(['png', 'apng', 'mjpeg', 'jpegls', 'jpeg2000', 'jpegxl', 'bmp', 'gif', 'tiff', 'webp', 'qoi', 'ppm', 'pgm', 'pam', 'sgi', 'targa', 'exr', 'dpx']);

// Why the first real video stream is a single picture, or null when it is (or may be) a video: one
// frame by its count, a length of at most one frame (half a frame of slack for rounding), or a
// picture codec with no length of its own. A stream that says nothing is let through; background
// removal counts the frames it decodes as well.
export function stillImageReason(video: Pick<VideoStreamProbe, 'codecName' | 'nbFrames' | 'durationSeconds' | 'fps'>): string | null {
  if (video.nbFrames === 1) return 'The video stream holds a single frame';
  if (video.durationSeconds !== null && video.fps !== null && video.durationSeconds <= 1.5 / video.fps) {
    return `The video stream lasts one frame (${video.durationSeconds} s at ${Math.round(video.fps * 100) / 100} fps)`;
  }
  if (IMAGE_CODECS.has(video.codecName) && video.durationSeconds === null) return `The video stream is a ${video.codecName} picture with no length`;
  return null;
}

export function stillImage(why: string): MediaError {
  return new MediaError('invalid_file', 'The file is a still image, not a video', [{ type: 'still_image', message: why }]);
}
