import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { open as openZip, type Entry, type ZipFile } from 'yauzl';
import { FFMPEG_PATH, FFPROBE_PATH } from '../../media/testing/media-tools';

// Test helpers that read matting results back with the real ffmpeg: the alpha of a VP9 WebM, the
// luma of an H.264 matte, frame timestamps, stream descriptions; and the entries of a ZIP.

const execFileAsync = promisify(execFile);
const MAX_BUFFER = 512 * 1024 * 1024;

function grayFrames(args: string[], width: number, height: number): Promise<Uint8Array[]> {
  return rawFrames(args, 'gray', width * height);
}

async function rawFrames(args: string[], pixelFormat: 'gray' | 'rgb24', size: number): Promise<Uint8Array[]> {
  // passthrough: one raw frame per coded frame, never duplicated to fill a nominal rate.
  const { stdout } = await execFileAsync(FFMPEG_PATH, ['-v', 'error', '-nostdin', ...args, '-fps_mode', 'passthrough', '-f', 'rawvideo', '-pix_fmt', pixelFormat, 'pipe:1'], {
    encoding: 'buffer',
    maxBuffer: MAX_BUFFER,
  });
  return Array.from({ length: Math.floor(stdout.length / size) }, (_, i) => new Uint8Array(stdout.subarray(i * size, (i + 1) * size)));
}

// libvpx-vp9 must be named before -i: ffmpeg's own VP9 decoder drops the alpha.
export function decodeWebmAlpha(path: string, width: number, height: number): Promise<Uint8Array[]> {
  return grayFrames(['-c:v', 'libvpx-vp9', '-i', path, '-vf', 'alphaextract'], width, height);
}

// The alpha plane of a ProRes 4444 or of a PNG, at 8 bits.
export function decodeAlpha(path: string, width: number, height: number): Promise<Uint8Array[]> {
  return grayFrames(['-i', path, '-vf', 'alphaextract'], width, height);
}

// Each frame of a video's picture as packed RGB (3 bytes a pixel).
export function decodeRgb(path: string, width: number, height: number): Promise<Uint8Array[]> {
  return rawFrames(['-i', path], 'rgb24', width * height * 3);
}

// A PNG's chunk structure around `dataBytes` bytes of picture data, all `value` (the splitter reads
// only the structure).
export function fakePng(value: number, dataBytes: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    return Buffer.concat([length, Buffer.from(type, 'latin1'), data, Buffer.alloc(4, value)]);
  };
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', Buffer.alloc(13, value)),
    chunk('IDAT', Buffer.alloc(dataBytes, value)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// Each entry of a ZIP file, by name, in the order stored.
export async function zipEntries(path: string): Promise<Map<string, Buffer>> {
  const zip = await new Promise<ZipFile>((resolve, reject) => openZip(path, { lazyEntries: true }, (error, file) => (error ? reject(error) : resolve(file))));
  const entries = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: Entry) =>
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('error', reject);
        stream.on('end', () => {
          entries.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      }),
    );
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  return entries;
}

// A ZIP's entries written out under `dir`.
export async function unzip(path: string, dir: string): Promise<void> {
  for (const [name, bytes] of await zipEntries(path)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), bytes);
  }
}

// Full-range grey of a video's picture: an H.264 matte's luma comes back on the 0..255 alpha scale.
export function decodeGray(path: string, width: number, height: number): Promise<Uint8Array[]> {
  return grayFrames(['-i', path], width, height);
}

// Grey frames scaled as the encoder scales a model-size matte (bilinear), one at a time.
export async function scaleGray(frames: Uint8Array[], from: [number, number], to: [number, number]): Promise<Uint8Array[]> {
  const child = execFile(FFMPEG_PATH, ['-v', 'error', '-f', 'rawvideo', '-pix_fmt', 'gray', '-s', `${from[0]}x${from[1]}`, '-i', 'pipe:0', '-vf', `scale=${to[0]}:${to[1]}:flags=bilinear`, '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1'], {
    encoding: 'buffer',
    maxBuffer: MAX_BUFFER,
  });
  const output = new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(chunks)) : reject(new Error(`ffmpeg exited with ${code}`))));
  });
  child.stdin?.end(Buffer.concat(frames));
  const scaled = await output;
  const size = to[0] * to[1];
  return Array.from({ length: frames.length }, (_, i) => new Uint8Array(scaled.subarray(i * size, (i + 1) * size)));
}

export interface VideoStreamInfo {
  codec_name: string;
  profile?: string;
  width: number;
  height: number;
  pix_fmt: string;
  r_frame_rate: string;
  tags?: Record<string, string>;
}

export async function streamsOf(path: string): Promise<{ video: VideoStreamInfo[]; audio: { codec_name: string; channels: number }[]; formatName: string }> {
  const { stdout } = await execFileAsync(FFPROBE_PATH, ['-v', 'error', '-print_format', 'json', '-show_streams', '-show_format', path]);
  const parsed = JSON.parse(stdout) as { streams: (VideoStreamInfo & { codec_type: string; channels: number })[]; format: { format_name: string } };
  return {
    video: parsed.streams.filter((s) => s.codec_type === 'video'),
    audio: parsed.streams.filter((s) => s.codec_type === 'audio'),
    formatName: parsed.format.format_name,
  };
}

// Presentation times of the first video stream's packets, in order. A WebM's alpha adds an empty
// side-data field to its packets' lines, and a line of its own.
export async function videoFrameTimes(path: string): Promise<number[]> {
  const { stdout } = await execFileAsync(FFPROBE_PATH, ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time', '-of', 'csv=p=0', path]);
  return stdout
    .split('\n')
    .map((line) => line.split(',')[0]!)
    .filter(Boolean)
    .map(Number)
    .sort((a, b) => a - b);
}

export function meanAbsoluteDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let total = 0;
  for (let i = 0; i < a.length; i++) total += Math.abs(a[i] - b[i]);
  return total / a.length;
}

// Mean of a plane over a rectangle given as fractions of the frame (x0, y0, x1, y1).
export function regionMean(plane: ArrayLike<number>, width: number, height: number, [x0, y0, x1, y1]: [number, number, number, number]): number {
  let total = 0;
  let count = 0;
  for (let y = Math.floor(y0 * height); y < Math.ceil(y1 * height); y++) {
    for (let x = Math.floor(x0 * width); x < Math.ceil(x1 * width); x++) {
      total += plane[y * width + x];
      count++;
    }
  }
  return total / count;
}

// Marks an MP4's first track as turned 90 degrees clockwise, as phones do: ffmpeg 5.1 cannot set
// a display matrix itself, so the track header's matrix is written in place.
export async function markRotatedClockwise(path: string): Promise<void> {
  const file = await readFile(path);
  const box = file.indexOf('tkhd');
  const version = file[box + 4];
  // version/flags, then the times, track id, reserved and duration, reserved, layer, group, volume
  const matrix = box + 4 + 4 + (version === 0 ? 20 : 32) + 8 + 8;
  [0, 0x10000, 0, -0x10000, 0, 0, 0, 0, 0x40000000].forEach((value, i) => file.writeInt32BE(value, matrix + i * 4));
  await writeFile(path, file);
}
