import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

// Test-side media helpers: generate inputs with lavfi and measure outputs with ffprobe/ffmpeg.

export type TestVideoCodec = 'h264' | 'vp9' | 'mpeg4';

const VIDEO_ENCODERS: Record<TestVideoCodec, string[]> = {
  h264: ['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p'],
  vp9: ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '300k'],
  mpeg4: ['-c:v', 'mpeg4', '-q:v', '5'],
};

// A test picture with a noisy tone as audio (or none), in the container the codec usually ships in.
export async function generateVideo(
  path: string,
  // lossless: the H.264 picture at -qp 0, several MiB a second at 720p (a file large enough for parts).
  options: { codec: TestVideoCodec; seconds: number; audio: boolean; size?: string; speechWav?: string; noiseWav?: string; lossless?: boolean },
): Promise<void> {
  const size = options.size ?? '320x240';
  const inputs = ['-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=25:duration=${options.seconds}`];
  const maps = ['-map', '0:v'];
  let filter: string[] = [];
  if (options.audio && options.speechWav && options.noiseWav) {
    inputs.push('-i', options.speechWav, '-stream_loop', '-1', '-i', options.noiseWav);
    filter = ['-filter_complex', '[1:a]aresample=48000,aformat=channel_layouts=mono[s];[2:a]aresample=48000,aformat=channel_layouts=mono[n];[s][n]amix=inputs=2:duration=first:normalize=0[a]'];
    maps.push('-map', '[a]');
  } else if (options.audio) {
    inputs.push('-f', 'lavfi', '-i', `sine=frequency=330:sample_rate=44100:duration=${options.seconds}`);
    inputs.push('-f', 'lavfi', '-i', `anoisesrc=color=pink:amplitude=0.08:sample_rate=44100:duration=${options.seconds}`);
    filter = ['-filter_complex', '[1:a][2:a]amix=inputs=2:normalize=0[a]'];
    maps.push('-map', '[a]');
  }
  const audioCodec = options.codec === 'vp9' ? ['-c:a', 'libopus'] : ['-c:a', 'aac'];
  await run('ffmpeg', ['-v', 'error', '-y', ...inputs, ...filter, ...maps, ...VIDEO_ENCODERS[options.codec], ...(options.lossless ? ['-preset', 'ultrafast', '-qp', '0'] : []), ...(options.audio ? audioCodec : []), '-t', String(options.seconds), path]);
}

// SHA-256 of every packet of the first video stream: equal lists mean the picture was copied bit for bit.
export async function videoPacketHashes(path: string): Promise<string[]> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=data_hash', '-show_data_hash', 'sha256', '-of', 'csv=p=0', path]);
  return stdout.trim().split('\n');
}

export interface ProbedStreams {
  formatName: string;
  video: { codec_name: string } | undefined;
  audio: Array<{ codec_name: string; sample_rate: string; channels: number }>;
}

export async function probeStreams(path: string): Promise<ProbedStreams> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', path]);
  const parsed = JSON.parse(stdout) as { format: { format_name: string }; streams: Array<{ codec_type: string; codec_name: string; sample_rate: string; channels: number }> };
  return {
    formatName: parsed.format.format_name,
    video: parsed.streams.find((s) => s.codec_type === 'video'),
    audio: parsed.streams.filter((s) => s.codec_type === 'audio'),
  };
}

// Integrated loudness (LUFS) and true peak (dBTP) by ffmpeg's EBU R128 meter.
export async function loudness(path: string): Promise<{ integrated: number; truePeak: number }> {
  const { stderr } = await run('ffmpeg', ['-nostats', '-i', path, '-map', '0:a:0', '-af', 'ebur128=peak=true', '-f', 'null', '-'], { maxBuffer: 64 * 1024 * 1024 });
  const summary = stderr.slice(stderr.lastIndexOf('Summary:'));
  const integrated = Number(/I:\s+(-?[\d.]+) LUFS/.exec(summary)?.[1]);
  const truePeak = Number(/Peak:\s+(-?[\d.]+) dBFS/.exec(summary)?.[1]);
  return { integrated, truePeak };
}

// Decodes the first audio stream to 48 kHz mono float samples.
export async function decodeAudio(path: string): Promise<Float32Array> {
  const { stdout } = await run('ffmpeg', ['-v', 'error', '-i', path, '-map', '0:a:0', '-ac', '1', '-ar', '48000', '-f', 'f32le', '-'], {
    encoding: 'buffer',
    maxBuffer: 512 * 1024 * 1024,
  });
  const bytes = stdout as unknown as Buffer;
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}
