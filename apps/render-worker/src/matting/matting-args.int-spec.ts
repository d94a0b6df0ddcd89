import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OutputCodec } from '@vj/contracts';
import { probeMedia, ProcessRunner } from '../media';
import { ffmpeg } from '../media/testing/media-tools';
import { runFramePipeline } from './frame-pipeline';
import { decodeFramesArgs, encodeMatteArgs, type MatteFiles } from './matting-args';
import { decodeAlpha, decodeGray, decodeWebmAlpha, videoFrameTimes } from './testing/matte-tools';

// The pairing of pictures and alpha frames, with the real ffmpeg: frame n of the alpha stream (here a
// flat grey of 8 n) must land on picture n, whatever the input's time base, whether the encoder
// decodes the picture itself or the worker hands it the decoder's.

const colour = { colorSpace: null, colorPrimaries: null, colorTransfer: null };

let dir: string;
beforeAll(async () => (dir = await mkdtemp(join(tmpdir(), 'vj-matte-args-'))));
afterAll(() => rm(dir, { recursive: true, force: true }));

// The outputs that write files of their own (png_sequence's PNGs come on stdout: remove-background.int-spec).
type FileCodec = Exclude<OutputCodec, 'png_sequence'> | 'composite';
const FILE_CODECS: FileCodec[] = ['vp9', 'h264', 'prores', 'composite'];

function filesOf(codec: FileCodec): MatteFiles {
  if (codec === 'vp9') return { codec, webmPath: join(dir, 'out.webm') };
  if (codec === 'composite') return { codec, mp4Path: join(dir, 'composite.mp4'), background: { color: '#00b140' } };
  return codec === 'h264' ? { codec, rgbPath: join(dir, 'rgb.mp4'), mattePath: join(dir, 'matte.mp4') } : { codec, movPath: join(dir, 'out.mov') };
}

async function encode(input: string, frameRate: string, codec: FileCodec, pictures: 'worker' | 'file'): Promise<string[]> {
  const files = filesOf(codec);
  const geometry = { width: 64, height: 48, filters: [] };
  const alpha = { width: 16, height: 8 };
  const fps = frameRate.split('/').map(Number).reduce((num, den) => num / den);
  let started = 0;
  await runFramePipeline({
    runner: new ProcessRunner(),
    ffmpegPath: 'ffmpeg',
    decodeArgs: decodeFramesArgs({ inputPath: input, storedSize: geometry, geometry, maxSeconds: 60, modelInput: alpha, side: pictures === 'worker' ? geometry : null, smallFromSide: false }),
    encodeArgs: encodeMatteArgs({ inputPath: input, storedSize: geometry, geometry, pictures, maxSeconds: 60, frameRate, fps, audio: null, colour, alpha, files, maxFileBytes: 1024 ** 3 }),
    frameBytes: alpha.width * alpha.height * 3,
    sideFrameBytes: pictures === 'worker' ? (geometry.width * geometry.height * 3) / 2 : undefined,
    sideToEncoder: pictures === 'worker',
    alphaBytes: alpha.width * alpha.height,
    stage: { start: () => started++, finish: async (n) => Buffer.alloc(alpha.width * alpha.height, 8 * n) },
    depth: 2,
    timeoutMs: 60_000,
  });
  if (files.codec === 'h264') return [files.rgbPath, files.mattePath];
  if (files.codec === 'vp9') return [files.webmPath];
  if (files.codec === 'prores') return [files.movPath];
  if (files.codec === 'composite') return [files.mp4Path];
  throw new Error(`${files.codec} is not tested here`);
}

function alphaOf(codec: Exclude<FileCodec, 'composite'>, outputs: string[]): Promise<Uint8Array[]> {
  if (codec === 'vp9') return decodeWebmAlpha(outputs[0], 64, 48);
  return codec === 'h264' ? decodeGray(outputs[1], 64, 48) : decodeAlpha(outputs[0], 64, 48);
}

describe('decodeFramesArgs and encodeMatteArgs with the real ffmpeg', () => {
  it.each([
    ['Matroska at 30 fps (time base 1/1000)', 'in.mkv', '30', [], ['-r', '30']],
    ['MP4 at 29.97 fps', 'in.mp4', '30000/1001', [], ['-r', '30000/1001']],
    ['WebM at 25 fps', 'in.webm', '25', [], ['-r', '25']],
    // Every fifth frame dropped: nominal rate 30, average 24, as phones record.
    ['MP4 whose average rate is not its nominal rate', 'vfr.mp4', '30', ['-vf', "select='not(eq(mod(n\\,5)\\,0))'"], ['-fps_mode', 'vfr']],
  ])('gives picture n the n-th alpha frame, once each: %s', async (_name, file, sourceRate, filter, output) => {
    const input = join(dir, file);
    const codec = file.endsWith('.webm') ? ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8'] : ['-c:v', 'libx264', '-preset', 'ultrafast'];
    await ffmpeg(['-f', 'lavfi', '-i', `testsrc2=size=64x48:rate=${sourceRate}:duration=1`, ...filter, ...codec, '-pix_fmt', 'yuv420p', ...output, input]);
    const frames = (await videoFrameTimes(input)).length;
    // The rate the job numbers frames at: the probe's average one.
    const rate = (await probeMedia(new ProcessRunner(), { ffprobePath: 'ffprobe', inputPath: input, timeoutMs: 10_000 })).video?.frameRate ?? '25';
    for (const codecName of FILE_CODECS) {
      for (const pictures of ['file', 'worker'] as const) {
        const outputs = await encode(input, rate, codecName, pictures);
        // A composite has no alpha left: one picture a frame is what is checked of it.
        if (codecName === 'composite') {
          expect(await videoFrameTimes(outputs[0])).toHaveLength(frames);
          continue;
        }
        const alphas = await alphaOf(codecName, outputs);
        expect(alphas).toHaveLength(frames);
        // The H.264 picture, a file of its own, has exactly as many frames as its matte.
        if (codecName === 'h264') expect(await videoFrameTimes(outputs[0])).toHaveLength(frames);
        // Lossy coding moves a flat grey by a level or two, never by a whole frame's 8; ProRes 4444
        // keeps the alpha within one level.
        alphas.forEach((alpha, n) => expect(Math.abs(alpha[64 * 24 + 32] - 8 * n)).toBeLessThanOrEqual(codecName === 'prores' ? 1 : 3));
      }
    }
  });
});
