// The fence around every ffmpeg and ffprobe run that opens a user's file (decision 0019): the input
// options that go right before its -i. One list, one place: the jobs and the duration probe use it.

// Plain containers only, each with the name users know it by (ffmpeg matches a demuxer by any of its
// names: 'mov' is mov,mp4,m4a,...). Playlist, manifest and list demuxers (hls, dash, concat...) open
// the files and URLs named inside the user's file: an uploaded playlist naming another job's scratch
// input, or a presigned URL's playlist naming any URL, would deliver what it names. Image demuxers
// (image2, png_pipe...) are out too: a still image is not a video. So are tty, lavfi and devices.
export const ACCEPTED_CONTAINER_NAMES: Readonly<Record<string, string>> = {
  mov: 'MP4/MOV',
  matroska: 'Matroska/WebM',
  avi: 'AVI',
  flv: 'FLV',
  mpegts: 'MPEG-TS',
  mpeg: 'MPEG-PS',
  asf: 'ASF/WMV',
  ogg: 'Ogg',
  mxf: 'MXF',
};
export const ACCEPTED_CONTAINERS: readonly string[] = Object.keys(ACCEPTED_CONTAINER_NAMES);

// The protocols an input needs, and nothing else.
export const LOCAL_FILE = ['file'] as const;
export const PRESIGNED_URL = ['http', 'https', 'tcp', 'tls'] as const;

// The largest picture a job accepts: sides and pixels in all, either way up.
export interface PictureLimit {
  maxSide: number;
  maxPixels: number;
}

// Any decoder of a user's file, the probes' included (they decode a frame to describe a stream): 8K
// either way up. Background removal accepts less (MAX_MATTING_PICTURE).
export const MAX_DECODED_PICTURE: PictureLimit = { maxSide: 8192, maxPixels: 8192 * 4352 };

// Decoders check -max_pixels against the picture padded to their alignment (4112x2304 is checked as
// 4160x2304), at most this much a side.
const DECODER_PADDING = 64;

// -max_pixels for a limit: every picture within it, padded, passes; with sides at most maxSide and
// maxPixels in all, the padded area is largest for the widest such picture.
export function decoderMaxPixels(limit: PictureLimit): number {
  const widest = { width: limit.maxSide, height: Math.floor(limit.maxPixels / limit.maxSide) };
  return (widest.width + DECODER_PADDING) * (widest.height + DECODER_PADDING);
}

// The input options of a user's file: its protocols, the accepted containers, and a bound on what
// its decoders allocate, so a header that lies about the size cannot make them allocate more.
export function fenceOptions(protocols: readonly string[], limit: PictureLimit = MAX_DECODED_PICTURE): string[] {
  return [
    '-protocol_whitelist', protocols.join(','),
    '-format_whitelist', ACCEPTED_CONTAINERS.join(','),
    '-max_pixels', String(decoderMaxPixels(limit)),
  ];
}

// A user's file on this machine as an ffmpeg input: the fence, then -i (so a name starting with '-'
// is never read as an option).
export function userFileInput(path: string, limit: PictureLimit = MAX_DECODED_PICTURE): string[] {
  return [...fenceOptions(LOCAL_FILE, limit), '-i', path];
}

// A background image (decision 0089): the still-image demuxers that read one picture by its content,
// nothing that names other files or loops (image2 opens numbered files, gif animates), and no picture
// larger than MAX_BACKGROUND_PICTURE.
export const ACCEPTED_IMAGE_FORMATS: readonly string[] = ['png_pipe', 'jpeg_pipe', 'webp_pipe'];
export const MAX_BACKGROUND_PICTURE: PictureLimit = { maxSide: 8192, maxPixels: 8192 * 8192 };

export function userImageInput(path: string): string[] {
  return [
    '-protocol_whitelist', LOCAL_FILE.join(','),
    '-format_whitelist', ACCEPTED_IMAGE_FORMATS.join(','),
    '-max_pixels', String(decoderMaxPixels(MAX_BACKGROUND_PICTURE)),
    '-i', path,
  ];
}

// Our own files and pipes (raw PCM, alpha frames, our encoded output): their format is forced or
// known, only the protocol is fenced.
export function ownInput(path: string): string[] {
  return ['-protocol_whitelist', path.startsWith('pipe:') ? 'pipe' : 'file', '-i', path];
}
