import type { InputMeasurer, MeasuredInput } from '../processing/ports';
import { billableSeconds, measurePackets } from './measure-duration';
import { probeMedia } from './probe';
import type { CommandRunner } from './process-runner';

// A demuxing pass reads at disk speed; this bounds a stuck one, the job's own limit comes by signal.
const MEASURE_TIMEOUT_MS = 10 * 60_000;

// The header's duration (fenced ffprobe) checked against the packets (fenced stream copy).
export class FfmpegInputMeasurer implements InputMeasurer {
  constructor(
    private readonly runner: CommandRunner,
    private readonly paths: { ffmpegPath: string; ffprobePath: string },
  ) {}

  async measure(path: string, maxSeconds: number, signal: AbortSignal): Promise<MeasuredInput> {
    const probe = await probeMedia(this.runner, { ffprobePath: this.paths.ffprobePath, inputPath: path, timeoutMs: MEASURE_TIMEOUT_MS, signal });
    const packets = await measurePackets(this.runner, { ffmpegPath: this.paths.ffmpegPath, inputPath: path, maxSeconds, timeoutMs: MEASURE_TIMEOUT_MS, signal });
    return { seconds: billableSeconds(probe.durationSeconds, packets.seconds), videoFrames: packets.videoFrames, probe };
  }
}
