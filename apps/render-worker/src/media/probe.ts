import { forUser } from './input-damage';
import { fenceOptions, LOCAL_FILE, MAX_DECODED_PICTURE, type PictureLimit } from './input-fence';
import { refusalIn } from './input-refusal';
import { MediaError } from './media-error';
import { parseProbe, type MediaProbe } from './parse-probe';
import { lastLine, ProcessFailedError, type CommandRunner } from './process-runner';

export interface ProbeRequest {
  ffprobePath: string;
  inputPath: string;
  timeoutMs: number;
  signal?: AbortSignal;
  // What the input is read through: a local file unless said otherwise (the duration probe reads an
  // upload through a presigned URL). The rest of the fence is always there.
  protocols?: readonly string[];
  // The limit a picture too large for the probe's decoder is reported against: the job's.
  pictureLimit?: PictureLimit;
}

// The fence before -i (input-fence.ts), and -i, so a file name starting with '-' is never read as
// an option.
export function probeArgs(inputPath: string, protocols: readonly string[] = LOCAL_FILE): string[] {
  return ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', ...fenceOptions(protocols), '-i', inputPath];
}

// ffprobe failing can only mean the file is unreadable or refused: its arguments never change.
export async function probeMedia(runner: CommandRunner, request: ProbeRequest): Promise<MediaProbe> {
  const limit = request.pictureLimit ?? MAX_DECODED_PICTURE;
  let stdout: string;
  let stderrTail: string;
  try {
    ({ stdout, stderrTail } = await runner.run(
      { file: request.ffprobePath, args: probeArgs(request.inputPath, request.protocols) },
      { timeoutMs: request.timeoutMs, signal: request.signal, stdout: 'capture' },
    ));
  } catch (error) {
    if (!(error instanceof ProcessFailedError)) throw error;
    throw (
      refusalIn(error.stderrTail, request.inputPath, limit) ??
      new MediaError('invalid_file', 'The file is not a readable video', [
        { type: 'unreadable_file', message: forUser(lastLine(error.stderrTail), request.inputPath) },
      ])
    );
  }
  // Some decoders describe a picture over the limit as 0x0 and succeed: that is a refusal too.
  const refused = refusalIn(stderrTail, request.inputPath, limit);
  if (refused) throw refused;
  return parseProbe(stdout);
}
