import { forUser } from './input-damage';
import { ACCEPTED_CONTAINER_NAMES, type PictureLimit } from './input-fence';
import { DoubtfulMediaError, MediaError } from './media-error';
import type { VideoStreamProbe } from './parse-probe';
import { stillImage } from './still-image';

// The input's fault, as the job's error, when the fence (input-fence.ts) or a decoder's limits stop
// an ffmpeg or ffprobe run: never our own failure, never retried.

// "[hls @ 0x55d0...] Format not on whitelist 'mov,...'": the demuxer is refused before it reads
// anything, so nothing the file names is opened.
const FORMAT_REFUSED = /\[([\w,]+) @ 0x[0-9a-f]+\] Format not on whitelist/;
const PROTOCOL_REFUSED = /Protocol '([^']*)' not on whitelist/;
// "Picture size 4160x2304 exceeds specified max pixel count 9850880" (the padded size).
const OVER_MAX_PIXELS = /Picture size (\d+)x(\d+) exceeds specified max pixel count/;
const OUT_OF_MEMORY = /Cannot allocate memory|Out of memory/i;
// Image demuxers: ffmpeg reads a picture file as a one-frame "sequence".
const IMAGE_DEMUXER = /^(image2|image2pipe|\w+_pipe|\w+_pix)$/;

const ACCEPTED_NAMES = Object.values(ACCEPTED_CONTAINER_NAMES).join(', ');

export function refusalIn(stderr: string, inputPath: string, limit: PictureLimit): MediaError | null {
  const format = FORMAT_REFUSED.exec(stderr);
  if (format) return containerRefused(format[1]);
  const protocol = PROTOCOL_REFUSED.exec(stderr);
  if (protocol) {
    return new MediaError('invalid_file', 'The container is not an accepted video format', [
      { type: 'unsupported_container', message: `The file refers to other files or URLs (${protocol[1]}); a video must hold its own media` },
    ]);
  }
  const pixels = OVER_MAX_PIXELS.exec(stderr);
  if (pixels) return tooLarge(`A picture in the video is ${pixels[1]}x${pixels[2]} pixels (as decoded)`, limit);
  const memory = matchingLine(stderr, OUT_OF_MEMORY);
  if (memory) return outOfMemory(forUser(memory, inputPath));
  return null;
}

function containerRefused(demuxer: string): MediaError {
  if (IMAGE_DEMUXER.test(demuxer)) return stillImage(`The file is a picture (${demuxer.replace(/_pipe$/, '')})`);
  return new MediaError('invalid_file', 'The container is not an accepted video format', [
    { type: 'unsupported_container', message: `The file is read as "${demuxer}", which is not an accepted video container; accepted: ${ACCEPTED_NAMES}` },
  ]);
}

// A decoder that ran out of memory, or was killed for it: the picture asks for more than a worker
// gives one decoder, if it happens again (the memory may have gone to another job).
export function outOfMemory(why: string): MediaError {
  return new DoubtfulMediaError('invalid_file', 'The video could not be decoded within the memory a job gets', [{ type: 'out_of_memory', message: why }]);
}

// From the probe, before anything is decoded.
export function pictureOverLimit(video: Pick<VideoStreamProbe, 'width' | 'height'>, limit: PictureLimit): MediaError | null {
  const { width, height } = video;
  if (Math.max(width, height) <= limit.maxSide && width * height <= limit.maxPixels) return null;
  return tooLarge(`The picture is ${width}x${height}`, limit);
}

function tooLarge(what: string, limit: PictureLimit): MediaError {
  const most = `${limit.maxSide}x${Math.floor(limit.maxPixels / limit.maxSide)}`;
  return new MediaError('input_validation', `The video is larger than ${most} pixels`, [
    { type: 'video_too_large', message: `${what}; the limit is ${limit.maxSide} pixels a side and ${most} in all, either way up`, field: 'video_url' },
  ]);
}

function matchingLine(text: string, pattern: RegExp): string | null {
  return text.split('\n').find((line) => pattern.test(line))?.trim() ?? null;
}
