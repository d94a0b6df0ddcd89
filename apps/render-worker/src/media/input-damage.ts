import { MediaError } from './media-error';

// ffmpeg's own words for an input that is cut short or corrupt, as opposed to a mistake of ours.
// Demuxers only log truncation and then stop as if the file had ended, so that is looked for even
// when ffmpeg succeeds: a cut-off upload must not come back as a shorter video.
const TRUNCATION = /partial file|File ended prematurely/i;
const CORRUPTION = /Invalid data found when processing input|moov atom not found|Error while decoding|corrupt/i;

export function truncationIn(stderr: string): string | null {
  return matchingLine(stderr, TRUNCATION);
}

export function damageIn(stderr: string): string | null {
  return truncationIn(stderr) ?? matchingLine(stderr, CORRUPTION);
}

export function damagedInputError(line: string, inputPath: string): MediaError {
  return new MediaError('invalid_file', 'The file is damaged or truncated', [
    { type: 'damaged_file', message: forUser(line, inputPath) },
  ]);
}

// An ffmpeg log line as a detail message: without the local path and the "[mov,mp4 @ 0x55...]"
// context prefix, which mean nothing to the user.
export function forUser(line: string, inputPath: string): string {
  return line.replaceAll(inputPath, 'input').replace(/^\[[^\]]* @ 0x[0-9a-f]+\]\s*/, '');
}

function matchingLine(text: string, pattern: RegExp): string | null {
  return text.split('\n').find((line) => pattern.test(line))?.trim() ?? null;
}
