import { Writable } from 'node:stream';
import { fenceOptions, LOCAL_FILE } from './input-fence';
import type { CommandRunner } from './process-runner';

// Where a long video can be cut into segments (decision 0100): the frame numbers, from 0 in
// presentation order, of its first video stream's keyframes, and how many frames it has, from the
// packets' flags and timestamps alone (no decoding), read through the same fence as the job's input.

export interface KeyframeRequest {
  ffprobePath: string;
  inputPath: string;
  // Reading stops a second past it, as the measurer's does.
  maxSeconds: number;
  // A file with more picture packets than this is refused before they are all held.
  maxFrames: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface FrameIndex {
  frames: number;
  keyframes: number[];
  // Each frame's time in seconds, as the packets state it, in presentation order; null where a packet
  // has none or two frames share one: then the frames are known by number only.
  times: number[] | null;
}

export function keyframeArgs(request: Pick<KeyframeRequest, 'inputPath' | 'maxSeconds'>): string[] {
  return [
    '-v', 'error', ...fenceOptions(LOCAL_FILE), '-read_intervals', `%+${request.maxSeconds + 1}`,
    '-select_streams', 'V:0', '-show_entries', 'packet=pts_time,flags', '-of', 'csv=p=0', '-i', request.inputPath,
  ];
}

export class TooManyFramesError extends Error {
  constructor(readonly maxFrames: number) {
    super(`the video has more than ${maxFrames} frames`);
    this.name = 'TooManyFramesError';
  }
}

export async function listKeyframes(runner: CommandRunner, request: KeyframeRequest): Promise<FrameIndex> {
  const packets = new PacketLines(request.maxFrames);
  // Past maxFrames the lines stop being taken, and that is why the run failed, if it did.
  await runner
    .run({ file: request.ffprobePath, args: keyframeArgs(request) }, { timeoutMs: request.timeoutMs, signal: request.signal, stdout: packets })
    .catch((error: unknown) => {
      throw packets.failure ?? error;
    });
  if (packets.failure) throw packets.failure;
  return packets.index();
}

// ffprobe's "pts_time,flags" lines, one a packet in decoding order, kept as they come: a packet flagged
// D (discarded by an edit list) is no frame. Without a timestamp on every packet, decoding order is
// taken as the frames' order.
class PacketLines extends Writable {
  private readonly packets: { pts: number; key: boolean }[] = [];
  private rest = '';
  private allTimed = true;
  failure: TooManyFramesError | null = null;

  constructor(private readonly maxFrames: number) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    const lines = (this.rest + chunk.toString('latin1')).split('\n');
    this.rest = lines.pop() ?? '';
    done(this.take(lines));
  }

  override _final(done: (error?: Error | null) => void): void {
    done(this.take([this.rest]));
  }

  index(): FrameIndex {
    const ordered = this.allTimed ? [...this.packets].sort((a, b) => a.pts - b.pts) : this.packets;
    const distinct = this.allTimed && ordered.every((packet, frame) => frame === 0 || packet.pts > ordered[frame - 1]!.pts);
    return { frames: ordered.length, keyframes: ordered.flatMap((packet, frame) => (packet.key ? [frame] : [])), times: distinct ? ordered.map((packet) => packet.pts) : null };
  }

  private take(lines: readonly string[]): Error | null {
    for (const line of lines) {
      const [pts, flags] = line.trim().split(',');
      if (!flags || flags.includes('D')) continue;
      const value = Number(pts);
      if (!Number.isFinite(value) || pts === '') this.allTimed = false;
      this.packets.push({ pts: value, key: flags.includes('K') });
      if (this.packets.length > this.maxFrames) return (this.failure = new TooManyFramesError(this.maxFrames));
    }
    return null;
  }
}
