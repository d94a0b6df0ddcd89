import type { InputMeasurer, MeasuredInput } from '../processing/ports';
import { billableSeconds, measurePackets } from './measure-duration';
import { probeMedia } from './probe';
import type { CommandRunner } from './process-runner';

// A demuxing pass reads at disk speed; this bounds a stuck one, the job's own limit comes by signal.
const MEASURE_TIMEOUT_MS = 10 * 60_000;

// The header's duration (fenced ffprobe) checked against the packets (fenced stream copy), both at
// once: each is a process start and a read of the file, and the machine has a core for each. A probe
// that fails stops the count, and its error is the one reported, as when it ran first.
export class FfmpegInputMeasurer implements InputMeasurer {
  constructor(
    private readonly runner: CommandRunner,
    private readonly paths: { ffmpegPath: string; ffprobePath: string },
  ) {}

  async measure(path: string, maxSeconds: number, signal: AbortSignal): Promise<MeasuredInput> {
    const probeFailed = new AbortController();
    const probing = probeMedia(this.runner, { ffprobePath: this.paths.ffprobePath, inputPath: path, timeoutMs: MEASURE_TIMEOUT_MS, signal });
    probing.catch(() => probeFailed.abort());
    const counting = measurePackets(this.runner, {
      ffmpegPath: this.paths.ffmpegPath,
      inputPath: path,
      maxSeconds,
      timeoutMs: MEASURE_TIMEOUT_MS,
      signal: AbortSignal.any([signal, probeFailed.signal]),
    });
    const [probe, packets] = await Promise.allSettled([probing, counting]);
    if (probe.status === 'rejected') throw probe.reason;
    if (packets.status === 'rejected') throw packets.reason;
    return { seconds: billableSeconds(probe.value.durationSeconds, packets.value.seconds), videoFrames: packets.value.videoFrames, probe: probe.value };
  }
}
