import { readFrames, writeFrames } from './ffmpeg-io';
import type { VideoFile } from './pipeline-matte';

// The studio green the composites are laid on: what the matte keeps shows as picture, the rest green.
const GREEN = [0x00, 0xb1, 0x40];

// One frame of the video, as decoded (what the model saw), over green through `alpha`, as a PNG.
export async function greenPng(video: VideoFile, frame: number, alpha: Uint8Array, path: string): Promise<void> {
  const pixels = video.width * video.height;
  const picture = await readPicture(video, frame);
  const out = new Uint8Array(pixels * 3);
  for (let i = 0; i < pixels; i++) {
    for (let c = 0; c < 3; c++) out[3 * i + c] = Math.round(GREEN[c]! + (alpha[i]! * (picture[3 * i + c]! - GREEN[c]!)) / 255);
  }
  await writeFrames(['-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${video.width}x${video.height}`], ['-frames:v', '1', path], [out]);
}

// Where a frame's matte goes wrong, over the frame: the picture where the matte and the reference
// agree on the person, red where the matte missed them, blue where it kept more, the rest dimmed.
export async function errorPng(video: VideoFile, frame: number, alpha: Uint8Array, reference: Uint8Array, path: string): Promise<void> {
  const pixels = video.width * video.height;
  const picture = await readPicture(video, frame);
  const out = new Uint8Array(pixels * 3);
  for (let i = 0; i < pixels; i++) {
    const kept = alpha[i]! >= 128;
    const person = reference[i]! >= 128;
    for (let c = 0; c < 3; c++) {
      const value = picture[3 * i + c]!;
      const tint = person && !kept ? (c === 0 ? 255 : 0) : kept && !person ? (c === 2 ? 255 : 0) : null;
      out[3 * i + c] = tint === null ? (person ? value : value >> 2) : (value + tint) >> 1;
    }
  }
  await writeFrames(['-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${video.width}x${video.height}`], ['-frames:v', '1', path], [out]);
}

// Where the matte flickers over the clip, over its frame `frame` dimmed: each pixel's summed alpha change
// between consecutive frames where the reference is background in both (the bench's flicker), yellow
// as bright as the clip's most flickering pixel.
export async function flickerPng(video: VideoFile, frame: number, matte: readonly Uint8Array[], reference: readonly Uint8Array[], path: string): Promise<void> {
  const pixels = video.width * video.height;
  const change = new Float64Array(pixels);
  for (let f = 1; f < matte.length; f++) {
    for (let i = 0; i < pixels; i++) {
      if (reference[f]![i] === 0 && reference[f - 1]![i] === 0) change[i]! += Math.abs(matte[f]![i]! - matte[f - 1]![i]!);
    }
  }
  const most = change.reduce((a, b) => Math.max(a, b), 1);
  const picture = await readPicture(video, frame);
  const out = new Uint8Array(pixels * 3);
  for (let i = 0; i < pixels; i++) {
    const heat = Math.sqrt(change[i]! / most);
    for (let c = 0; c < 3; c++) out[3 * i + c] = Math.round((picture[3 * i + c]! >> 2) * (1 - heat) + (c === 2 ? 0 : 255 * heat));
  }
  await writeFrames(['-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${video.width}x${video.height}`], ['-frames:v', '1', path], [out]);
}

// One frame of the video as decoded (what the model saw), rgb24.
async function readPicture(video: VideoFile, frame: number): Promise<Uint8Array> {
  const [picture] = await readFrames(['-i', video.path, '-vf', `select=eq(n\\,${frame})`, '-fps_mode', 'passthrough', '-frames:v', '1', '-pix_fmt', 'rgb24'], video.width * video.height * 3);
  if (!picture) throw new Error(`${video.path} has no frame ${frame}`);
  return picture;
}
