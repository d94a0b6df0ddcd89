import { createReadStream, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { PCM_SAMPLE_RATE } from './clean-audio-args';
import { denoiseCommand } from './denoise-command';
import { readDenoisedLoudness } from './denoised-loudness';
import { denoiseInParts } from './denoise-in-parts';
import { denoiseParts } from './denoise-parts';
import type { LoudnessMeasurement } from './loudness';
import { lowBandWeight, readLowBandEnergy, type LowBandEnergy } from './low-band';
import { AbortError } from './media-error';
import { ProcessRunner, type CommandRunner, type RunOptions } from './process-runner';
import { siSdr } from './si-sdr';
import { noisyVoice, PcmCollector, toBytes, toSamples } from './testing/pcm';

// Two denoisers on the two halves of 32 s of noisy voice, against one denoiser on all of it.
describe('denoiseInParts', () => {
  const runner = new ProcessRunner();
  const denoiser = (meterPath: string, lowBandPath: string) => denoiseCommand(process.execPath, 0.874, meterPath, lowBandPath);
  let dir: string;
  let pcmPath: string;
  let whole: Int16Array;
  let wholeLoudness: LoudnessMeasurement;
  let wholeLowBand: Int16Array;
  let wholeLowBandEnergy: LowBandEnergy;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vj-denoise-parts-'));
    pcmPath = join(dir, 'decoded.s16le');
    await writeFile(pcmPath, toBytes(noisyVoice(32 * PCM_SAMPLE_RATE)));
    const output = new PcmCollector();
    const meterPath = join(dir, 'whole.loudness');
    const lowBandPath = join(dir, 'whole.low');
    await runner.run(denoiser(meterPath, lowBandPath), { timeoutMs: 60_000, stdin: createReadStream(pcmPath), stdout: output });
    whole = output.samples;
    wholeLoudness = await readDenoisedLoudness([{ path: meterPath }]);
    wholeLowBand = toSamples(await readFile(lowBandPath));
    wholeLowBandEnergy = await readLowBandEnergy(lowBandPath);
  });

  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes what one denoiser writes: the first part byte for byte, the next part once its pre-roll has settled the state', async () => {
    const size = whole.length * 2;
    const parts = denoiseParts(size, 2);
    expect(parts).toHaveLength(2);
    const rawPath = join(dir, 'denoised.s16le');
    const counted: number[] = [];
    const lowBandPath = join(dir, 'denoised.low');
    const { loudness, lowBand } = await denoiseInParts({ runner, denoiser, pcmPath, rawPath, lowBandPath, parts, timeoutMs: 60_000, onBytes: (total) => counted.push(total) });
    const parted = toSamples(await readFile(rawPath));
    expect(parted.length).toBe(whole.length);
    expect(counted.at(-1)).toBe(size);
    const boundary = parts[1].outputStart / 2;
    const bytes = (samples: Int16Array) => Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
    // Compared as bytes: a failing toEqual would print a million samples.
    expect(bytes(parted.subarray(0, boundary)).equals(bytes(whole.subarray(0, boundary)))).toBe(true);
    expect(siSdr(parted.subarray(boundary), whole.subarray(boundary))).toBeGreaterThan(40);
    // Measured by the parts over the frames they kept, gated as one file: as one denoiser measured it.
    expect(loudness.integratedLufs).toBeCloseTo(wholeLoudness.integratedLufs, 2);
    expect(loudness.truePeakDb).toBeCloseTo(wholeLoudness.truePeakDb, 1);
    // The low band is put together the same way. It is a small signal, so what the pre-roll leaves
    // different after the boundary weighs more in it. Its energies, each part's over all it read, weigh
    // the pre-roll twice, so they come within a few per cent of one denoiser's.
    const partedLowBand = toSamples(await readFile(lowBandPath));
    expect(partedLowBand.length).toBe(wholeLowBand.length);
    expect(bytes(partedLowBand.subarray(0, boundary)).equals(bytes(wholeLowBand.subarray(0, boundary)))).toBe(true);
    expect(siSdr(partedLowBand.subarray(boundary), wholeLowBand.subarray(boundary))).toBeGreaterThan(15);
    expect(lowBandWeight(lowBand)).toBeCloseTo(lowBandWeight([wholeLowBandEnergy]), 1);
    expect(readdirSync(dir).filter((name) => /\.low(\.json)?$/.test(name)).sort()).toEqual(['denoised.low', 'whole.low', 'whole.low.json']);
    expect(readdirSync(dir).filter((name) => name.endsWith('.loudness'))).toEqual(['whole.loudness']);
  });

  it('fails with an AbortError when the job is cancelled just before its parts start', async () => {
    const parts = denoiseParts(whole.length * 2, 2);
    const cancelled = denoiseInParts({ runner, denoiser, pcmPath, rawPath: join(dir, 'cancelled.s16le'), lowBandPath: join(dir, 'cancelled.low'), parts, timeoutMs: 60_000, signal: AbortSignal.abort() });
    await expect(cancelled).rejects.toBeInstanceOf(AbortError);
    expect(readdirSync(dir).filter((name) => name.endsWith('.loudness'))).toEqual(['whole.loudness']);
  });

  it('stops the other parts at the first failure and reports that failure', async () => {
    const failure = new Error('denoiser crashed');
    let abortedOthers = 0;
    // The part reading from the start fails; the other waits until it is stopped.
    const failing: CommandRunner = {
      run: (_command, options: RunOptions) =>
        new Promise((_resolve, reject) => {
          const first = (options.stdin as unknown as { start?: number }).start === 0;
          options.stdin?.destroy();
          // As a real child's stdout does when it dies.
          const fail = (error: Error) => ((options.stdout as Writable).end(), reject(error));
          options.signal?.addEventListener('abort', () => {
            abortedOthers++;
            fail(new AbortError('stopped'));
          });
          if (first) setTimeout(() => fail(failure), 20);
        }),
      pipe: () => Promise.reject(new Error('unused')),
    };
    const parts = denoiseParts(whole.length * 2, 2);
    await expect(denoiseInParts({ runner: failing, denoiser, pcmPath, rawPath: join(dir, 'failed.s16le'), lowBandPath: join(dir, 'failed.low'), parts, timeoutMs: 60_000 })).rejects.toBe(failure);
    expect(abortedOthers).toBeGreaterThanOrEqual(1);
  });
});
