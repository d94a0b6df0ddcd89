import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { basename } from 'node:path';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AbortError, MediaError } from './media-error';
import { countProcessStart } from '../metrics/process-starts';

// The one place that starts external processes (ffmpeg, ffprobe, the denoiser). It uses
// child_process directly rather than fluent-ffmpeg (archived upstream): arguments come from pure
// builders, the denoiser is not ffmpeg, and fluent-ffmpeg adds nothing for timeouts, cancellation
// or process-to-process pipes. Swapping the implementation means replacing this file only.

export interface ProcessCommand {
  readonly file: string;
  readonly args: readonly string[];
  // The folder it runs in: files a filter writes are named relative to it (noise-floor.ts).
  readonly cwd?: string;
}

export interface RunOptions {
  // Wall-clock limit: past it the process gets SIGKILL and the run fails with MediaError('timeout').
  timeoutMs: number;
  // Aborting kills the process at once; the run fails with AbortError.
  signal?: AbortSignal;
  // Streamed into stdin (for pipe(): into the first process); without it stdin is closed.
  stdin?: Readable;
  // Where stdout goes (for pipe(): the last process's), with back-pressure; 'capture' collects it
  // as text for small outputs like ffprobe's JSON. Without it stdout is discarded.
  stdout?: Writable | 'capture';
  // Further inputs on file descriptors 3, 4, ... (ffmpeg's pipe:3), streamed in like stdin. run() only.
  inputs?: readonly Readable[];
  // Further outputs on the file descriptors after the inputs', with back-pressure. run() only.
  outputs?: readonly Writable[];
}

export interface RunResult {
  stdout: string;
  // The end of stderr: ffmpeg prints its reasons and ebur128 its summary there.
  stderrTail: string;
}

export interface CommandRunner {
  run(command: ProcessCommand, options: RunOptions): Promise<RunResult>;
  // Runs `a | b | c`: one limit for the whole pipe, and the first failure stops every process.
  pipe(commands: readonly ProcessCommand[], options: RunOptions): Promise<RunResult[]>;
}

// How a process is started: child_process.spawn, or a stand-in that gives a process already booted
// (warm-node-processes.ts).
export type StartProcess = (file: string, args: readonly string[], options: SpawnOptions) => ChildProcess;

const STDERR_TAIL_CHARS = 16_384;

export class ProcessFailedError extends Error {
  constructor(
    // The executable as it was started, so a caller can tell the processes of a pipe apart.
    readonly file: string,
    readonly exitCode: number | null,
    readonly exitSignal: NodeJS.Signals | null,
    readonly stderrTail: string,
    // Its place in a pipe (0 is the first process), when it ran in one.
    readonly pipeStage?: number,
  ) {
    super(`${basename(file)} exited with ${exitSignal ?? `code ${exitCode}`}: ${lastLine(stderrTail)}`);
    this.name = 'ProcessFailedError';
  }

  atPipeStage(stage: number): ProcessFailedError {
    return new ProcessFailedError(this.file, this.exitCode, this.exitSignal, this.stderrTail, stage);
  }
}

export function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return lines[lines.length - 1]?.trim() || '(no output)';
}

// The child stopped reading an input; its exit status already says whether that was a failure. An
// input on fd 3 or after is a socket, which is reset (ECONNRESET) where a pipe breaks (EPIPE).
function isClosedByReader(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === 'EPIPE' || code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE';
}

export class ProcessRunner implements CommandRunner {
  constructor(private readonly startProcess: StartProcess = spawn) {}

  run(command: ProcessCommand, options: RunOptions): Promise<RunResult> {
    const name = basename(command.file);
    const { signal } = options;
    if (signal?.aborted) {
      settleUnstarted(options);
      return Promise.reject(new AbortError(`${name} not started: cancelled`, { cause: signal.reason }));
    }
    return new Promise((resolve, reject) => {
      const inputs = options.inputs ?? [];
      const outputs = options.outputs ?? [];
      const child = this.startProcess(command.file, command.args, {
        ...(command.cwd && { cwd: command.cwd }),
        stdio: [options.stdin ? 'pipe' : 'ignore', options.stdout ? 'pipe' : 'ignore', 'pipe', ...[...inputs, ...outputs].map(() => 'pipe' as const)],
      });
      countProcessStart(command.file);
      let stopped: Error | undefined; // why we killed it, or why it never started
      const stop = (reason: Error): void => {
        stopped ??= reason;
        child.kill('SIGKILL');
      };
      const timer = setTimeout(
        () => stop(new MediaError('timeout', `${name} ran past its ${options.timeoutMs} ms limit and was killed`)),
        options.timeoutMs,
      );
      const onAbort = (): void => stop(new AbortError(`${name} stopped: cancelled`, { cause: signal?.reason }));
      signal?.addEventListener('abort', onAbort, { once: true });

      let stderrTail = '';
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (chunk: string) => (stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL_CHARS)));

      const streams: Promise<void>[] = [];
      let inputError: unknown;
      let stdoutError: unknown;
      const captured: Buffer[] = [];
      const feed = (source: Readable, target: Writable | null | undefined): void => {
        if (target) streams.push(pipeline(source, target).catch((error: unknown) => void (inputError ??= error)));
      };
      if (options.stdin) feed(options.stdin, child.stdin);
      inputs.forEach((input, i) => feed(input, child.stdio[3 + i] as Writable | null));
      if (options.stdout === 'capture') child.stdout?.on('data', (chunk: Buffer) => captured.push(chunk));
      else if (options.stdout && child.stdout) {
        streams.push(pipeline(child.stdout, options.stdout).catch((error: unknown) => void (stdoutError = error)));
      }
      outputs.forEach((output, i) => {
        const source = child.stdio[3 + inputs.length + i] as Readable | null;
        if (source) streams.push(pipeline(source, output).catch((error: unknown) => void (stdoutError = error)));
      });

      child.once('error', (error) => (stopped ??= error));
      child.once('close', (exitCode, exitSignal) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        // An input source that never ends must not keep us waiting once the child is gone.
        child.stdin?.destroy();
        inputs.forEach((_, i) => (child.stdio[3 + i] as Writable | null)?.destroy());
        void Promise.all(streams).then(() => {
          // A failing destination (disk full) is the cause when the child then dies of EPIPE.
          if (stopped) reject(stopped);
          else if (stdoutError) reject(stdoutError);
          else if (exitCode !== 0) reject(new ProcessFailedError(command.file, exitCode, exitSignal, stderrTail));
          else if (inputError && !isClosedByReader(inputError)) reject(inputError);
          else resolve({ stdout: Buffer.concat(captured).toString('utf8'), stderrTail });
        });
      });
    });
  }

  pipe(commands: readonly ProcessCommand[], options: RunOptions): Promise<RunResult[]> {
    const links = commands.slice(1).map(() => new PassThrough());
    const last = commands.length - 1;
    return runTogether(options.signal, (stop) =>
      commands.map((command, i) =>
        this.run(command, {
          timeoutMs: options.timeoutMs,
          signal: stop,
          stdin: i === 0 ? options.stdin : links[i - 1],
          stdout: i === last ? options.stdout : links[i],
        }).catch((caught: unknown) => {
          throw caught instanceof ProcessFailedError ? caught.atPipeStage(i) : caught;
        }),
      ),
    );
  }
}

// A run that never starts leaves its streams as a killed child's would: what it was to write ends,
// so whoever reads that (a file writer, the next stage) settles instead of waiting for ever, and what
// it was to read is closed (a file stream holds its descriptor until then).
function settleUnstarted(options: RunOptions): void {
  if (options.stdout && options.stdout !== 'capture') options.stdout.end();
  options.outputs?.forEach((output) => output.end());
  options.stdin?.destroy();
  options.inputs?.forEach((input) => input.destroy());
}

// Runs work that stands or falls together (a pipe's processes, a file's parts): `start` gets one
// stop signal, fired by `signal` too, and the first failure fires it for the others. That failure is
// what rejects; the others are its consequences.
export async function runTogether<T>(signal: AbortSignal | undefined, start: (stop: AbortSignal) => Promise<T>[]): Promise<T[]> {
  const controller = new AbortController();
  const forwardAbort = (): void => controller.abort(signal?.reason);
  if (signal?.aborted) forwardAbort();
  signal?.addEventListener('abort', forwardAbort, { once: true });
  let firstError: { error: unknown } | undefined;
  const runs = start(controller.signal).map((run) =>
    run.catch((error: unknown) => {
      if (!firstError) {
        firstError = { error };
        controller.abort();
      }
      throw error;
    }),
  );
  const settled = await Promise.allSettled(runs);
  signal?.removeEventListener('abort', forwardAbort);
  if (firstError) throw firstError.error;
  return settled.map((result) => (result as PromiseFulfilledResult<T>).value);
}
