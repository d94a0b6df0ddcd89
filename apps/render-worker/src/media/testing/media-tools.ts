import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { EBUR128_FILTER, parseEbur128Summary, type LoudnessMeasurement } from '../loudness';

// Helpers for the integration tests: generate small media with lavfi and inspect results.

export const FFMPEG_PATH = process.env.FFMPEG_PATH ?? 'ffmpeg';
export const FFPROBE_PATH = process.env.FFPROBE_PATH ?? 'ffprobe';

const execFileAsync = promisify(execFile);
const MAX_BUFFER = 64 * 1024 * 1024;

// Runs ffmpeg and returns its stderr.
export async function ffmpeg(args: readonly string[]): Promise<string> {
  const { stderr } = await execFileAsync(FFMPEG_PATH, ['-hide_banner', '-nostdin', '-y', ...args], { maxBuffer: MAX_BUFFER });
  return stderr;
}

async function ffprobe(args: readonly string[]): Promise<string> {
  const { stdout } = await execFileAsync(FFPROBE_PATH, ['-v', 'error', ...args], { maxBuffer: MAX_BUFFER });
  return stdout;
}

// A vowel-like harmonic tone in syllable-rate bursts: RNNoise keeps it as speech.
const VOICE =
  'aevalsrc=0.25*(sin(2*PI*140*t)+0.6*sin(2*PI*280*t)+0.4*sin(2*PI*420*t)+0.3*sin(2*PI*560*t)' +
  '+0.2*sin(2*PI*700*t)+0.1*sin(2*PI*1120*t))*max(0\\,sin(2*PI*2.5*t)):s=44100';

const VIDEO_CODECS = {
  h264: ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
  hevc: ['-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', 'log-level=error'],
  av1: ['-c:v', 'libsvtav1', '-preset', '12', '-svtav1-params', 'verbosity=0'],
  mpeg4: ['-c:v', 'mpeg4', '-q:v', '5'],
  vp8: ['-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8'],
  vp9: ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-row-mt', '1'],
} as const;
export type TestVideoCodec = keyof typeof VIDEO_CODECS;

export interface TestVideo {
  codec: TestVideoCodec;
  seconds?: number;
  // Stereo 44.1 kHz voice-like tone in pink noise, at about -17 LUFS; 'none' for a silent film.
  audio?: 'voice' | 'none';
  // Output options: audio codec, extra streams, container.
  output: readonly string[];
}

// testsrc2 at 320x240, 25 fps, with the voice and noise mixed down to stereo.
export async function makeTestVideo(path: string, spec: TestVideo): Promise<void> {
  const seconds = String(spec.seconds ?? 2);
  const picture = ['-f', 'lavfi', '-i', `testsrc2=size=320x240:rate=25:duration=${seconds}`];
  const sound =
    spec.audio === 'none'
      ? []
      : [
          '-f', 'lavfi', '-t', seconds, '-i', VOICE,
          '-f', 'lavfi', '-t', seconds, '-i', 'anoisesrc=color=pink:amplitude=0.2:r=44100:seed=7',
          '-filter_complex', '[1:a][2:a]amix=inputs=2:normalize=0,pan=stereo|c0=c0|c1=c0[voice]',
          '-map', '0:v', '-map', '[voice]',
        ];
  await ffmpeg([...picture, ...sound, ...VIDEO_CODECS[spec.codec], ...spec.output, path]);
}

export interface ProbedStream {
  codec_type: string;
  codec_name: string;
  sample_rate?: string;
  channels?: number;
  start_time?: string;
  duration?: string;
  tags?: Record<string, string>;
}

export async function streamsOf(path: string): Promise<ProbedStream[]> {
  return (JSON.parse(await ffprobe(['-print_format', 'json', '-show_streams', path])) as { streams: ProbedStream[] }).streams;
}

// One MD5 per packet of the first real video stream: equal lists mean the picture was copied bit
// for bit. Payloads only: WebM/Opus remuxing shifts timestamps by ~14 ms.
export async function videoPacketHashes(path: string): Promise<string[]> {
  const out = await ffprobe(['-select_streams', 'V:0', '-show_entries', 'packet=data_hash', '-show_data_hash', 'md5', '-of', 'csv=p=0', path]);
  return out.split('\n').filter(Boolean);
}

export async function durationOf(path: string): Promise<number> {
  return Number(await ffprobe(['-show_entries', 'format=duration', '-of', 'csv=p=0', path]));
}

// EBU R128 integrated loudness and true peak of the first audio stream, as ffmpeg measures them.
export async function loudnessOf(path: string): Promise<LoudnessMeasurement> {
  return parseEbur128Summary(await ffmpeg(['-nostats', '-i', path, '-map', '0:a:0', '-af', EBUR128_FILTER, '-f', 'null', '-']));
}

// The first audio stream as 48 kHz mono samples (small files only: held in memory).
export async function decodePcm(path: string): Promise<Int16Array> {
  const { stdout } = await execFileAsync(
    FFMPEG_PATH,
    ['-v', 'error', '-nostdin', '-i', path, '-map', '0:a:0', '-f', 's16le', '-ar', '48000', '-ac', '1', 'pipe:1'],
    { encoding: 'buffer', maxBuffer: MAX_BUFFER },
  );
  return new Int16Array(stdout.buffer.slice(stdout.byteOffset, stdout.byteOffset + stdout.byteLength));
}

// A lavfi audio source rendered as raw s16le 48 kHz mono.
export async function lavfiPcm(source: string): Promise<Buffer> {
  const { stdout } = await execFileAsync(
    FFMPEG_PATH,
    ['-v', 'error', '-nostdin', '-f', 'lavfi', '-i', source, '-f', 's16le', '-ar', '48000', '-ac', '1', 'pipe:1'],
    { encoding: 'buffer', maxBuffer: MAX_BUFFER },
  );
  return stdout;
}
