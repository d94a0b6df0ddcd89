import { readFile, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { CLEAN_AUDIO_DEFAULTS } from '@vj/contracts';
import { denoiseCommand } from '../../apps/render-worker/src/media/denoise-command';
import { readDenoisedLoudness } from '../../apps/render-worker/src/media/denoised-loudness';
import { firstLoudnessPlan, loudnessFilter } from '../../apps/render-worker/src/media/loudness';
import { lowBandWeight, readLowBandEnergy, removeLowBand } from '../../apps/render-worker/src/media/low-band';
import { ProcessRunner, type ProcessCommand } from '../../apps/render-worker/src/media/process-runner';
import { FFMPEG_PATH } from '../../apps/render-worker/src/media/testing/media-tools';
import { PcmCollector, toBytes, toSamples, withLowBand } from '../../apps/render-worker/src/media/testing/pcm';

// The clean-audio job's stages on 48 kHz mono samples, run as the job runs them, one process at a time:
//   denoised: rnnoise-filter.mjs at the default strength, measuring what it writes, with the low band
//     it removed given back as the whole input decides (low-band.ts; the job mixes it in while it
//     encodes, here it is added to the samples);
//   chain: that output through the job's loudness step at default options (normalise to target_lufs):
//     the gain and limiter of its first plan, from the denoiser's own measurement (firstLoudnessPlan,
//     loudnessFilter), applied by ffmpeg to the raw PCM. The job applies the same filter while it
//     encodes to AAC, then corrects the plan from the encoded file; the codec, and those corrections
//     of what it does to loudness and peaks, are left out here.
// Times both, for the cost in realtime.

const SAMPLE_RATE = 48_000;
const PCM = ['-f', 's16le', '-ar', String(SAMPLE_RATE), '-ac', '1'];
// Per process; a 7 s clip takes well under a second.
const TIMEOUT_MS = 60_000;

export interface ChainOutput {
  denoised: Int16Array;
  chain: Int16Array;
}

export interface ChainCost {
  audioSeconds: number;
  denoiseSeconds: number;
  // The loudness step: reading the denoiser's measurement, planning and applying the gain.
  loudnessSeconds: number;
}

export class JobStages {
  readonly cost: ChainCost = { audioSeconds: 0, denoiseSeconds: 0, loudnessSeconds: 0 };
  private readonly runner = new ProcessRunner();

  constructor(private readonly workDir: string) {
    // Without normalising, the job's target is the input file's own loudness, which this does not measure.
    if (!CLEAN_AUDIO_DEFAULTS.normalize_loudness) throw new Error('the default options no longer normalise loudness: update the chain here');
  }

  // The denoiser alone at `strength`.
  async denoise(input: Int16Array, strength: number): Promise<Int16Array> {
    return this.denoiseWith(input, strength);
  }

  async chain(input: Int16Array): Promise<ChainOutput> {
    const meterPath = join(this.workDir, 'denoised.loudness');
    try {
      const started = process.hrtime.bigint();
      const denoised = await this.denoiseWith(input, CLEAN_AUDIO_DEFAULTS.strength, meterPath);
      const denoisedAt = process.hrtime.bigint();
      const chain = await this.normalise(denoised, meterPath);
      this.cost.audioSeconds += input.length / SAMPLE_RATE;
      this.cost.denoiseSeconds += seconds(denoisedAt - started);
      this.cost.loudnessSeconds += seconds(process.hrtime.bigint() - denoisedAt);
      return { denoised, chain };
    } finally {
      await rm(meterPath, { force: true });
    }
  }

  private async denoiseWith(input: Int16Array, strength: number, meterPath?: string): Promise<Int16Array> {
    const lowBandPath = join(this.workDir, 'denoised.low');
    try {
      const denoised = await this.pipeThrough(denoiseCommand(process.execPath, strength, meterPath, lowBandPath), input);
      const weight = lowBandWeight([await readLowBandEnergy(lowBandPath)]);
      if (weight === 0) return denoised;
      return withLowBand(denoised, toSamples(await readFile(lowBandPath)), weight);
    } finally {
      await removeLowBand(lowBandPath);
    }
  }

  private async normalise(denoised: Int16Array, meterPath: string): Promise<Int16Array> {
    const measured = await readDenoisedLoudness([{ path: meterPath }]);
    const plan = firstLoudnessPlan(measured, CLEAN_AUDIO_DEFAULTS.target_lufs);
    // Silence is left as it is.
    if (!plan) return denoised;
    const args = ['-hide_banner', '-nostdin', '-v', 'error', ...PCM, '-i', 'pipe:0', '-af', loudnessFilter(plan, measured), ...PCM, 'pipe:1'];
    return this.pipeThrough({ file: FFMPEG_PATH, args }, denoised);
  }

  private async pipeThrough(command: ProcessCommand, input: Int16Array): Promise<Int16Array> {
    const output = new PcmCollector();
    await this.runner.run(command, { timeoutMs: TIMEOUT_MS, stdin: Readable.from([toBytes(input)]), stdout: output });
    const samples = output.samples;
    // Scoring needs sample i out to be sample i in: both stages keep the length.
    if (samples.length !== input.length) throw new Error(`${basename(command.file)} wrote ${samples.length} samples for ${input.length}`);
    return samples;
  }
}

function seconds(nanoseconds: bigint): number {
  return Number(nanoseconds) / 1e9;
}
