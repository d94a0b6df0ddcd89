import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { denoiseCommand } from './denoise-command';
import { readDenoisedLoudness, type MeteredPart } from './denoised-loudness';
import { EBUR128_FILTER, parseEbur128Summary, type LoudnessMeasurement } from './loudness';
import { ProcessRunner } from './process-runner';
import { decodePcm, ffmpeg, lavfiPcm } from './testing/media-tools';
import { noisyVoice, PcmCollector, toBytes } from './testing/pcm';

// loudness-meter.mjs, as the denoiser runs it on what it writes, against ffmpeg's ebur128 on the same
// samples. Strength 0 writes the input unchanged, so any PCM can be measured through it. ffmpeg prints
// one decimal; its true peak comes from its own resampler, the meter's from BS.1770's interpolator.
const MEDIA = resolve(__dirname, '../../../..', '../shared/media');
const withMedia = existsSync(MEDIA);
if (!withMedia) console.warn(`loudness meter on real speech skipped: ${MEDIA} is absent (real test media live outside the repo)`);

describe('loudness-meter.mjs', () => {
  const runner = new ProcessRunner();
  let dir: string;

  beforeAll(async () => (dir = await mkdtemp(join(tmpdir(), 'vj-meter-'))));
  afterAll(() => rm(dir, { recursive: true, force: true }));

  async function metered(pcm: Buffer, strength = 0, frames: Omit<MeteredPart, 'path'> = {}): Promise<{ output: Buffer; loudness: LoudnessMeasurement }> {
    const path = join(dir, `${Math.random()}.loudness`);
    const output = new PcmCollector();
    await runner.run(denoiseCommand(process.execPath, strength, path), { timeoutMs: 60_000, stdin: Readable.from([pcm]), stdout: output });
    return { output: output.bytes, loudness: await readDenoisedLoudness([{ path, ...frames }]) };
  }

  async function ebur128(pcm: Buffer): Promise<LoudnessMeasurement> {
    const path = join(dir, `${Math.random()}.s16le`);
    await writeFile(path, pcm);
    return parseEbur128Summary(await ffmpeg(['-nostats', '-f', 's16le', '-ar', '48000', '-ac', '1', '-i', path, '-af', EBUR128_FILTER, '-f', 'null', '-']));
  }

  it('reads noisy voice as ebur128 does, denoised or not', async () => {
    const input = toBytes(noisyVoice(10 * 48_000));
    for (const strength of [0, 0.874]) {
      const { output, loudness } = await metered(input, strength);
      const reference = await ebur128(output);
      expect(Math.abs(loudness.integratedLufs - reference.integratedLufs)).toBeLessThanOrEqual(0.06);
      expect(Math.abs(loudness.truePeakDb - reference.truePeakDb)).toBeLessThanOrEqual(0.2);
    }
  });

  it('finds the peak between samples', async () => {
    // 12 kHz at 45 degrees: every sample at 0.707 of the wave's peak, -3 dB under its true peak.
    const samples = Int16Array.from({ length: 48_000 }, (_, i) => Math.round(0.7 * 32767 * Math.sin((Math.PI / 2) * i + Math.PI / 4)));
    const { loudness } = await metered(toBytes(samples));
    expect(loudness.truePeakDb).toBeCloseTo(20 * Math.log10(0.7), 0);
    expect(loudness.truePeakDb).toBeGreaterThan(20 * Math.log10(0.7 * Math.SQRT1_2) + 2.5);
  });

  it('reads silence and audio under one 400 ms block as nothing to normalise', async () => {
    expect((await metered(Buffer.alloc(2 * 48_000))).loudness).toEqual({ integratedLufs: -Infinity, truePeakDb: -Infinity });
    const short = await metered(toBytes(noisyVoice(19_199)));
    expect(short.loudness.integratedLufs).toBe(-Infinity);
    expect(short.loudness.truePeakDb).toBeGreaterThan(-40);
  });

  it('keeps the loudness of each 10 ms apart, so the frames a part keeps are measured alone', async () => {
    // 1 s of loud tone, then 2 s of quiet tone: the frames after the loud second read as the quiet tone.
    const loud = await lavfiPcm('sine=frequency=1000:sample_rate=48000:duration=1,volume=0.9');
    const quiet = await lavfiPcm('sine=frequency=1000:sample_rate=48000:duration=2,volume=0.05');
    const { loudness } = await metered(Buffer.concat([loud, quiet]), 0, { firstFrame: 100, frames: 200 });
    const reference = await ebur128(quiet);
    expect(Math.abs(loudness.integratedLufs - reference.integratedLufs)).toBeLessThanOrEqual(0.06);
    expect(Math.abs(loudness.truePeakDb - reference.truePeakDb)).toBeLessThanOrEqual(0.2);
  });

  (withMedia ? it : it.skip)('reads real speech as ebur128 does, denoised or not', async () => {
    const speech = toBytes(await decodePcm(join(MEDIA, 'audio', 'sense_and_sensibility_01_austen_64kb-0870.wav')));
    for (const strength of [0, 0.874]) {
      const { output, loudness } = await metered(speech, strength);
      const reference = await ebur128(output);
      expect(Math.abs(loudness.integratedLufs - reference.integratedLufs)).toBeLessThanOrEqual(0.06);
      expect(Math.abs(loudness.truePeakDb - reference.truePeakDb)).toBeLessThanOrEqual(0.2);
    }
  });
});
