import { forUser } from './input-damage';
import { MediaError } from './media-error';
import { parseProbe, type MediaProbe } from './parse-probe';
import { lastLine, ProcessFailedError, type CommandRunner } from './process-runner';

export interface ProbeRequest {
  ffprobePath: string;
  inputPath: string;
  timeoutMs: number;
  signal?: AbortSignal;
  // Options for the input itself (protocol and format whitelists), placed before -i.
  inputOptions?: readonly string[];
}

// -i, so a file name starting with '-' is never read as an option.
export function probeArgs(inputPath: string, inputOptions: readonly string[] = []): string[] {
  return ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', ...inputOptions, '-i', inputPath];
}

// ffprobe failing can only mean the file is unreadable: its arguments never change.
export async function probeMedia(runner: CommandRunner, request: ProbeRequest): Promise<MediaProbe> {
  try {
    const { stdout } = await runner.run(
      { file: request.ffprobePath, args: probeArgs(request.inputPath, request.inputOptions) },
      { timeoutMs: request.timeoutMs, signal: request.signal, stdout: 'capture' },
    );
    return parseProbe(stdout);
  } catch (error) {
    if (!(error instanceof ProcessFailedError)) throw error;
    throw new MediaError('invalid_file', 'The file is not a readable video', [
      { type: 'unreadable_file', message: forUser(lastLine(error.stderrTail), request.inputPath) },
    ]);
  }
}
