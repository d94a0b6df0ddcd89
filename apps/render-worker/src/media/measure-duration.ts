import { forUser } from './input-damage';
import { MAX_DECODED_PICTURE, userFileInput } from './input-fence';
import { refusalIn } from './input-refusal';
import { MediaError } from './media-error';
import { lastLine, ProcessFailedError, type CommandRunner } from './process-runner';

export interface MeasureRequest {
  ffmpegPath: string;
  inputPath: string;
  // Reading stops a second past it: the job fails past its limit anyway, and the price stays bounded.
  maxSeconds: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

// Every picture and sound packet copied to nowhere: no decoding, just the demuxer (the fenced one the
// job itself uses) walking the file. Reports the output's time as it goes.
export function measureArgs(request: Pick<MeasureRequest, 'inputPath' | 'maxSeconds'>): string[] {
  return [
    '-hide_banner', '-nostdin', '-v', 'error', '-nostats', '-progress', 'pipe:1',
    ...userFileInput(request.inputPath),
    '-map', '0:V?', '-map', '0:a?', '-c', 'copy', '-t', String(request.maxSeconds + 1),
    '-f', 'null', '-',
  ];
}

// What ffmpeg's -progress report says at its end: the output time (the last packet's timestamp, so a
// frame short of the end, plus the audio codec's padding) and the picture frames copied.
export interface PacketMeasure {
  seconds: number;
  videoFrames: number;
}

export function progressOf(report: string): PacketMeasure | null {
  const last = (key: string) => Number([...report.matchAll(new RegExp(`^${key}=(\\d+)$`, 'gm'))].at(-1)?.[1] ?? 0);
  const micros = last('out_time_us');
  return micros > 0 ? { seconds: micros / 1_000_000, videoFrames: last('frame') } : null;
}

// The packets' time is a frame or an audio padding away from the real length (a 3.000 s MP4 measures
// 3.019 s of packets), which would bill a started second too many. So the header's duration counts when
// the packets confirm it, within this much; otherwise (no header, or one that lies) the packets do.
export const HEADER_TOLERANCE_SECONDS = 0.5;

export function billableSeconds(headerSeconds: number | null, packetSeconds: number): number {
  return headerSeconds !== null && Math.abs(packetSeconds - headerSeconds) <= HEADER_TOLERANCE_SECONDS ? headerSeconds : packetSeconds;
}

// The media the job will process, from its packets, not from its header: a header can say 2 s over an
// hour of packets (decision 0023).
export async function measurePackets(runner: CommandRunner, request: MeasureRequest): Promise<PacketMeasure> {
  let report: string;
  try {
    ({ stdout: report } = await runner.run(
      { file: request.ffmpegPath, args: measureArgs(request) },
      { timeoutMs: request.timeoutMs, signal: request.signal, stdout: 'capture' },
    ));
  } catch (error) {
    if (!(error instanceof ProcessFailedError)) throw error;
    throw (
      refusalIn(error.stderrTail, request.inputPath, MAX_DECODED_PICTURE) ??
      new MediaError('invalid_file', 'The file is not a readable video', [{ type: 'unreadable_file', message: forUser(lastLine(error.stderrTail), request.inputPath) }])
    );
  }
  const measured = progressOf(report);
  if (!measured) throw new MediaError('invalid_file', 'The file has no video or audio to process', [{ type: 'no_media', message: 'no picture or sound packets were found' }]);
  return measured;
}
