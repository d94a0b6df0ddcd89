import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, openSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ffmpeg } from './media-tools';

// Helpers for the integration tests of the input fence (input-fence.ts): uploads that name another
// file on the worker, and a FIFO in that file's place that shows whether anything opened it.

// An HLS playlist naming the file by its absolute path or as a file:// URL, or a concat list naming
// it relative to the list (concat's "safe" mode refuses absolute paths, not these).
export type TrapKind = 'hls-path' | 'hls-file-url' | 'concat';
export const TRAP_KINDS: readonly TrapKind[] = ['hls-path', 'hls-file-url', 'concat'];

export interface Trap {
  // The "upload": the job's input.
  inputPath: string;
  // The local file it names, in a folder beside it: a .ts, as HLS only reads media extensions.
  targetPath: string;
}

// A folder holding `input`, a playlist or list of `kind` naming `elsewhere/secret.ts`.
export async function makeTrap(dir: string, kind: TrapKind): Promise<Trap> {
  mkdirSync(join(dir, 'elsewhere'), { recursive: true });
  const inputPath = join(dir, 'input');
  const targetPath = join(dir, 'elsewhere', 'secret.ts');
  const playlist = (segment: string) => `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\n${segment}\n#EXT-X-ENDLIST\n`;
  const text = {
    'hls-path': playlist(targetPath),
    'hls-file-url': playlist(`file://${targetPath}`),
    concat: 'ffconcat version 1.0\nfile elsewhere/secret.ts\n',
  }[kind];
  await writeFile(inputPath, text);
  return { inputPath, targetPath };
}

export function makeFifo(path: string): void {
  execFileSync('mkfifo', [path]);
}

// The secret: a red picture and an 880 Hz tone, 2 s of MPEG-TS (H.264 and AAC), unlike any test clip.
export async function makeSecretClip(path: string): Promise<void> {
  await ffmpeg([
    '-f', 'lavfi', '-i', 'color=c=red:size=320x240:rate=25:duration=2',
    '-f', 'lavfi', '-t', '2', '-i', 'sine=frequency=880:sample_rate=48000',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-f', 'mpegts', path,
  ]);
}

// Whether a process opens `fifo` to read while it is watched. Opening a FIFO to read blocks until a
// writer comes, with the reader already counted: a non-blocking open for writing then succeeds (and
// lets the reader go on, to end of file); with no reader it fails with ENXIO at once.
export function watchFifo(fifo: string): { stop: () => { openedByReader: number; errors: string[] } } {
  let openedByReader = 0;
  const errors: string[] = [];
  const poll = setInterval(() => {
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
      openedByReader++;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENXIO') errors.push(String(code));
    }
  }, 2);
  return {
    stop: () => {
      clearInterval(poll);
      return { openedByReader, errors };
    },
  };
}

// Throws unless no process has `fifo` open to read right now.
export function expectNoReader(fifo: string): void {
  let code: string | undefined;
  try {
    closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch (error) {
    code = (error as NodeJS.ErrnoException).code;
  }
  if (code !== 'ENXIO') throw new Error(`expected no reader of ${fifo} (ENXIO), got ${code ?? 'a reader'}`);
}

// Runs a job on a trap whose named file is a FIFO and checks the fence held: the job failed
// invalid_file (unsupported_container, naming the demuxer) and nothing ever opened the FIFO.
export async function expectTrapRefused(dir: string, kind: TrapKind, runJob: (inputPath: string) => Promise<unknown>): Promise<void> {
  const trap = await makeTrap(dir, kind);
  makeFifo(trap.targetPath);
  // An ffmpeg that opened the FIFO would wait for a writer: the watcher sees it, and lets it go.
  const watch = watchFifo(trap.targetPath);
  const outcome = await runJob(trap.inputPath).then(
    (result) => ({ result }),
    (error: unknown) => ({ error }),
  );
  const { openedByReader, errors } = watch.stop();
  // Before the fence the FIFO had a reader here: ffmpeg opened what the upload named.
  expect(openedByReader).toBe(0);
  expect(errors).toEqual([]);
  expect(outcome).toMatchObject({
    error: {
      code: 'invalid_file',
      message: 'The container is not an accepted video format',
      details: [{ type: 'unsupported_container', message: expect.stringMatching(kind === 'concat' ? /"concat"/ : /"hls"/) }],
    },
  });
  expectNoReader(trap.targetPath);
}
