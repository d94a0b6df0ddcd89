import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { metricsText } from '@vj/observability';
import { isAbortError, MediaError } from './media-error';
import { ProcessFailedError, ProcessRunner, type ProcessCommand } from './process-runner';
import { FFMPEG_PATH, FFPROBE_PATH } from './testing/media-tools';

// Counts what it is given, slowly enough to make the writer wait (back-pressure).
class SlowCounter extends Writable {
  bytes = 0;
  constructor() {
    super({ highWaterMark: 1024 });
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.bytes += chunk.length;
    setImmediate(done);
  }
}

// An ffmpeg that never ends on its own (realtime sine into the null muxer), tagged so the test can
// look for it in the process table.
function endlessFfmpeg(marker: string, output: readonly string[] = ['-f', 'null', '-']): ProcessCommand {
  return {
    file: FFMPEG_PATH,
    args: ['-v', 'error', '-nostdin', '-re', '-f', 'lavfi', '-i', 'sine', '-metadata', `comment=${marker}`, ...output],
  };
}

function isRunning(marker: string): boolean {
  return execFileSync('ps', ['-ww', '-eo', 'args'], { encoding: 'utf8' }).includes(marker);
}

const node = (script: string): ProcessCommand => ({ file: process.execPath, args: ['-e', script] });
const ONE_SECOND_RAW: ProcessCommand = {
  file: FFMPEG_PATH,
  args: ['-v', 'error', '-nostdin', '-f', 'lavfi', '-i', 'sine=d=1:r=48000', '-f', 's16le', '-ac', '1', 'pipe:1'],
};

describe('ProcessRunner', () => {
  const runner = new ProcessRunner();

  it('counts every process it starts by program, the processes of a pipe each', async () => {
    const started = async (program: string) => Number(new RegExp(`^worker_processes_started_total\\{program="${program}"\\} (\\d+)$`, 'm').exec(await metricsText())?.[1] ?? 0);
    const [ffmpegBefore, nodeBefore] = [await started('ffmpeg'), await started('node')];
    await runner.pipe([ONE_SECOND_RAW, node('process.stdin.resume()')], { timeoutMs: 10_000 });
    expect(await started('ffmpeg')).toBe(ffmpegBefore + 1);
    expect(await started('node')).toBe(nodeBefore + 1);
  });

  it('captures stdout as text', async () => {
    const { stdout } = await runner.run({ file: FFPROBE_PATH, args: ['-version'] }, { timeoutMs: 10_000, stdout: 'capture' });
    expect(stdout).toMatch(/^ffprobe version/);
  });

  it('streams stdout into a writable, waiting for it', async () => {
    const counter = new SlowCounter();
    await runner.run(ONE_SECOND_RAW, { timeoutMs: 10_000, stdout: counter });
    expect(counter.bytes).toBe(96_000);
  });

  it('streams a readable into stdin', async () => {
    const input = Readable.from([Buffer.alloc(70_000), Buffer.alloc(30_000)]);
    const count = node('let n = 0; process.stdin.on("data", (c) => (n += c.length)).on("end", () => console.log(n));');
    const { stdout } = await runner.run(count, { timeoutMs: 10_000, stdin: input, stdout: 'capture' });
    expect(stdout.trim()).toBe('100000');
  });

  it('streams further inputs into file descriptors 3 and on, and further outputs after them', async () => {
    const inputs = [Readable.from([Buffer.alloc(5_000)]), Readable.from([Buffer.alloc(7_000)])];
    const chunks: Buffer[] = [];
    const output = new Writable({ write: (chunk: Buffer, _encoding, done) => done(void chunks.push(chunk)) });
    // Reads fds 3 and 4 to their ends, then writes how much each held to fd 5.
    const script = node('const fs = require("fs"); fs.writeSync(5, [3, 4].map((fd) => fs.readFileSync(fd).length).join(","));');
    await runner.run(script, { timeoutMs: 10_000, inputs, outputs: [output] });
    expect(Buffer.concat(chunks).toString()).toBe('5000,7000');
  });

  it('succeeds when the process exits cleanly without reading all of a further input (a socket, reset)', async () => {
    const input = Readable.from((function* () {
      for (let i = 0; i < 1_000; i++) yield Buffer.alloc(64 * 1024);
    })());
    const script = node('const fs = require("fs"); fs.readSync(3, Buffer.alloc(1024)); process.exit(0);');
    await expect(runner.run(script, { timeoutMs: 10_000, inputs: [input] })).resolves.toMatchObject({ stdout: '' });
  });

  it('fails with the exit code and the end of stderr when the process fails', async () => {
    const error = await runner
      .run({ file: FFMPEG_PATH, args: ['-v', 'error', '-nostdin', '-i', '/nonexistent/input.mp4', '-f', 'null', '-'] }, { timeoutMs: 10_000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProcessFailedError);
    expect(error).toMatchObject({ file: FFMPEG_PATH, exitCode: 1 });
    expect((error as ProcessFailedError).stderrTail).toContain('No such file or directory');
    expect((error as ProcessFailedError).message).toMatch(/^ffmpeg exited with code 1: .*No such file or directory/);
  });

  it('kills ffmpeg and fails with timeout past the time limit', async () => {
    const marker = randomUUID();
    const error = await runner.run(endlessFfmpeg(marker), { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaError);
    expect(error).toMatchObject({ code: 'timeout' });
    expect(isRunning(marker)).toBe(false);
  });

  it('kills ffmpeg and fails with an AbortError when the signal fires', async () => {
    const marker = randomUUID();
    const controller = new AbortController();
    const running = runner.run(endlessFfmpeg(marker), { timeoutMs: 60_000, signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    expect(isAbortError(await running.catch((e: unknown) => e))).toBe(true);
    expect(isRunning(marker)).toBe(false);
  });

  it('does not start a process when the signal has already fired, and settles its streams as a killed one would', async () => {
    const marker = randomUUID();
    const [stdout, output] = [new SlowCounter(), new SlowCounter()];
    const [stdin, input] = [Readable.from([Buffer.alloc(10)]), Readable.from([Buffer.alloc(10)])];
    const error = await runner
      .run(endlessFfmpeg(marker), { timeoutMs: 60_000, signal: AbortSignal.abort(), stdin, stdout, inputs: [input], outputs: [output] })
      .catch((e: unknown) => e);
    expect(isAbortError(error)).toBe(true);
    // A reader of what it was to write sees the end (a denoised part's file writer waits for it).
    expect([stdout.writableEnded, output.writableEnded]).toEqual([true, true]);
    expect([stdin.destroyed, input.destroyed]).toEqual([true, true]);
  });

  it('fails with the spawn error when the binary does not exist', async () => {
    const error = await runner.run({ file: '/nonexistent/ffmpeg', args: [] }, { timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ENOENT' });
  });

  describe('pipe', () => {
    it('streams one process into the next and the last into the writable', async () => {
      const counter = new SlowCounter();
      const results = await runner.pipe([ONE_SECOND_RAW, node('process.stdin.pipe(process.stdout)')], {
        timeoutMs: 10_000,
        stdout: counter,
      });
      expect(results).toHaveLength(2);
      expect(counter.bytes).toBe(96_000);
    });

    it('stops the other processes and reports the one that failed', async () => {
      const marker = randomUUID();
      const error = await runner
        .pipe([endlessFfmpeg(marker, ['-f', 's16le', 'pipe:1']), node('process.stdin.once("data", () => process.exit(3))')], {
          timeoutMs: 60_000,
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProcessFailedError);
      expect(error).toMatchObject({ file: process.execPath, exitCode: 3, pipeStage: 1 });
      expect(isRunning(marker)).toBe(false);
    });

    it('kills every process past the time limit', async () => {
      const marker = randomUUID();
      const error = await runner
        .pipe([endlessFfmpeg(marker, ['-f', 's16le', 'pipe:1']), node(`process.stdin.resume(); // ${marker}`)], { timeoutMs: 300 })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'timeout' });
      expect(isRunning(marker)).toBe(false);
    });
  });
});
