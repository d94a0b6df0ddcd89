import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { denoiseCommand } from './denoise-command';
import { ProcessRunner } from './process-runner';
import { siSdr } from './si-sdr';
import { decodePcm } from './testing/media-tools';
import { lowBandWeight, readLowBandEnergy } from './low-band';
import { mixAtSnr, PcmCollector, toBytes, toSamples, withLowBand } from './testing/pcm';

// Denoising quality on real recordings from ../shared/media (README there): LibriVox read speech
// (public domain, via Debian pocketsphinx-testdata) mixed with a real background-noise recording
// (CC0, freesound 573577) at known SNRs, scored with SI-SDR against the clean speech.
const MEDIA = resolve(__dirname, '../../../..', '../shared/media');
const present = existsSync(MEDIA);
if (!present) console.warn(`denoise quality tests skipped: ${MEDIA} is absent (real test media live outside the repo)`);
const describeWithMedia = present ? describe : describe.skip;

const SPEECH = ['sense_and_sensibility_01_austen_64kb-0870.wav', 'sense_and_sensibility_01_austen_64kb-0890.wav'];
const NOISE = 'noise_freesound_573577_cc0.wav';
const FRAME = 480;

// The output shifted by `lag` samples (zero-filled), to score misalignment.
function shifted(signal: Int16Array, lag: number): Float64Array {
  return Float64Array.from(signal, (_, i) => signal[i - lag] ?? 0);
}

describeWithMedia('denoising real noisy speech', () => {
  const runner = new ProcessRunner();
  let noise: Int16Array;
  const speech = new Map<string, Int16Array>();

  beforeAll(async () => {
    noise = await decodePcm(resolve(MEDIA, 'audio', NOISE));
    for (const name of SPEECH) speech.set(name, await decodePcm(resolve(MEDIA, 'audio', name)));
  });

  async function denoise(input: ArrayLike<number>, strength: number): Promise<Int16Array> {
    const output = new PcmCollector();
    await runner.run(denoiseCommand(process.execPath, strength), {
      timeoutMs: 30_000,
      stdin: Readable.from([toBytes(input)]),
      stdout: output,
    });
    return output.samples;
  }

  // The denoiser as the job runs it: what it removed under 300 Hz given back by the whole input's
  // measure (low-band.ts).
  async function denoiseWithLowBand(input: Int16Array): Promise<{ output: Int16Array; weight: number }> {
    const dir = await mkdtemp(join(tmpdir(), 'vj-denoise-quality-'));
    try {
      const lowBandPath = join(dir, 'low');
      const output = new PcmCollector();
      await runner.run(denoiseCommand(process.execPath, 0.874, undefined, lowBandPath), { timeoutMs: 30_000, stdin: Readable.from([toBytes(input)]), stdout: output });
      const weight = lowBandWeight([await readLowBandEnergy(lowBandPath)]);
      return { output: withLowBand(output.samples, toSamples(await readFile(lowBandPath)), weight), weight };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  describe.each(SPEECH)('%s', (name) => {
    it.each([0, 5])('improves SI-SDR by at least 6 dB at %i dB SNR, with the output aligned', async (snrDb) => {
      const clean = speech.get(name) as Int16Array;
      const noisy = mixAtSnr(clean, noise, snrDb);
      const [denoised, full] = await Promise.all([denoise(noisy, 0.874), denoise(noisy, 1)]);
      expect(denoised).toHaveLength(clean.length);

      const before = siSdr(noisy, clean);
      const after = siSdr(denoised, clean);
      expect(after - before).toBeGreaterThanOrEqual(6);
      // A frame early or late scores far worse: the output lines up with the input.
      expect(after).toBeGreaterThan(siSdr(shifted(denoised, FRAME), clean) + 3);
      expect(after).toBeGreaterThan(siSdr(shifted(denoised, -FRAME), clean) + 3);
      // The dry part is delayed to meet the denoisers' lagging output: mixed a frame early instead, as
      // a filter without the compensation would, it comb-filters and loses 0.7-2 dB.
      const uncompensated = Float64Array.from(full, (wet, i) => 0.874 * wet + 0.126 * (noisy[i + FRAME] ?? 0));
      expect(after).toBeGreaterThan(siSdr(uncompensated, clean) + 0.5);
    });

    // RNNoise's own output left clean speech at 10.5-13 dB against itself; scaled by its spectral
    // gains instead (spectral-gain.mjs), the speech keeps its waveform (decision 0075).
    it('leaves clean speech nearly as it was', async () => {
      const clean = speech.get(name) as Int16Array;
      expect(siSdr(await denoise(Float64Array.from(clean), 0.874), clean)).toBeGreaterThan(18);
    });

    // What is left of the change is mostly the voice's fundamental, under RNNoise's lowest band edge:
    // the job gives that band back when the whole file shows it held no noise (decision 0087).
    it('leaves clean speech at 30 dB or more once the low band is given back, and keeps it off noisy speech', async () => {
      const clean = speech.get(name) as Int16Array;
      const cleaned = await denoiseWithLowBand(clean);
      expect(cleaned.weight).toBe(1);
      expect(siSdr(cleaned.output, clean)).toBeGreaterThan(30);
      const noisy = mixAtSnr(clean, noise, 5);
      const denoised = await denoiseWithLowBand(noisy);
      expect(denoised.weight).toBe(0);
      expect(siSdr(denoised.output, clean) - siSdr(noisy, clean)).toBeGreaterThanOrEqual(6);
    });
  });
});
