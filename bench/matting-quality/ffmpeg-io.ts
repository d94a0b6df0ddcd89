import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { promisify } from 'node:util';

const run = promisify(execFile);

// ffmpeg's raw output (-f rawvideo pipe:1), cut into frames of `frameBytes`.
export async function readFrames(args: string[], frameBytes: number): Promise<Uint8Array[]> {
  const { stdout } = await run('ffmpeg', ['-v', 'error', ...args, '-f', 'rawvideo', 'pipe:1'], { encoding: 'buffer', maxBuffer: 2 ** 31 });
  return Array.from({ length: Math.floor(stdout.length / frameBytes) }, (_, i) => new Uint8Array(stdout.subarray(i * frameBytes, (i + 1) * frameBytes)));
}

// Feeds frames, one at a time as ffmpeg takes them, to `ffmpeg <input args> -i pipe:0 <output args>`.
export async function writeFrames(inputArgs: string[], outputArgs: string[], frames: Iterable<Uint8Array>): Promise<void> {
  const ffmpeg = spawn('ffmpeg', ['-v', 'error', '-y', ...inputArgs, '-i', 'pipe:0', ...outputArgs], { stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  ffmpeg.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(ffmpeg, 'close') as Promise<[number | null]>;
  // An ffmpeg that stops early closes its input: its exit code and message tell why.
  ffmpeg.stdin.on('error', () => undefined);
  for (const frame of frames) {
    if (!ffmpeg.stdin.write(frame)) await Promise.race([once(ffmpeg.stdin, 'drain'), exited]);
  }
  ffmpeg.stdin.end();
  const [code] = await exited;
  if (code !== 0) throw new Error(`ffmpeg exited with ${code}: ${stderr.trim()}`);
}
