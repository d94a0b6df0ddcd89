import { Readable } from 'node:stream';
import { denoiseCommand } from './denoise-command';
import { ProcessFailedError, ProcessRunner } from './process-runner';
import { siSdr } from './si-sdr';
import { lavfiPcm } from './testing/media-tools';
import { bestLag, noisyVoice, PcmCollector, toBytes, toSamples } from './testing/pcm';

// rnnoise-filter.mjs as the job runs it: a child process reading and writing raw s16le.

describe('rnnoise-filter.mjs', () => {
  const runner = new ProcessRunner();

  async function denoise(input: Buffer, strength: number, chunkBytes = 65_536): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for (let at = 0; at < input.length; at += chunkBytes) chunks.push(input.subarray(at, at + chunkBytes));
    const output = new PcmCollector();
    await runner.run(denoiseCommand(process.execPath, strength), { timeoutMs: 30_000, stdin: Readable.from(chunks), stdout: output });
    return output.bytes;
  }

  it('returns exactly as many samples as it was given', async () => {
    for (const samples of [0, 1, 479, 480, 481, 960, 48_007]) {
      const input = toBytes(noisyVoice(samples));
      expect((await denoise(input, 0.874)).length).toBe(input.length);
    }
  });

  it('returns the input unchanged at strength 0', async () => {
    const input = toBytes(noisyVoice(48_000 + 123));
    expect((await denoise(input, 0)).equals(input)).toBe(true);
  });

  it('gives the same output however stdin is cut into chunks', async () => {
    // Past the 4 s held back to look for hum: how much is held must not depend on the reads.
    const input = toBytes(noisyVoice(6 * 48_000 + 7));
    const whole = await denoise(input, 0.874, input.length);
    // 333 bytes: chunks end inside frames and inside samples; 65 536: the pipe's own reads.
    for (const chunkBytes of [333, 65_536]) expect((await denoise(input, 0.874, chunkBytes)).equals(whole)).toBe(true);
  });

  it('lines the output up with the input: RNNoise\'s one-frame lag is removed', async () => {
    const input = noisyVoice(48_000);
    for (const strength of [1, 0.5]) {
      const output = toSamples(await denoise(toBytes(input), strength));
      // Uncompensated, the best match would be 480 samples late.
      expect(Math.abs(bestLag(output, input, 600))).toBeLessThanOrEqual(2);
    }
  });

  // A network's state that a run of zeros left broken (a NaN from a log of nothing) would silence all
  // that follows: what comes after digital silence is denoised as it is alone.
  it('denoises what follows 5 s of digital silence as it denoises it alone', async () => {
    const voice = noisyVoice(3 * 48_000);
    const silence = new Int16Array(5 * 48_000);
    const afterSilence = toSamples(await denoise(toBytes(Int16Array.from([...silence, ...voice])), 0.874));
    const alone = toSamples(await denoise(toBytes(voice), 0.874));
    // Silent but for its last 100 ms, which the networks' look-ahead and windows share with the voice.
    expect(afterSilence.subarray(0, silence.length - 4800).every((sample) => sample === 0)).toBe(true);
    expect(siSdr(afterSilence.subarray(silence.length), alone)).toBeGreaterThan(20);
  });

  it('removes steady background noise', async () => {
    const noise = toSamples(await lavfiPcm('anoisesrc=color=pink:amplitude=0.05:duration=2:seed=3'));
    const denoised = toSamples(await denoise(toBytes(noise), 1));
    // Past the first 100 ms, while RNNoise settles.
    const energy = (signal: Int16Array): number => signal.subarray(4800).reduce((sum, x) => sum + x * x, 0);
    expect(10 * Math.log10(energy(denoised) / energy(noise))).toBeLessThan(-10);
  });

  // Hum is a fault, not ambience: the dry part of the mix loses it too, all of it from strength 0.5 up.
  it('takes mains hum out of the dry part of the mix as well, in proportion to strength below 0.5', async () => {
    const hum = toSamples(await lavfiPcm('aevalsrc=0.1*sin(2*PI*50*t)+0.05*sin(2*PI*150*t):s=48000:d=6'));
    // Past the 4 s the start is held back to look for hum, and RNNoise's settling.
    const left = (strength: number) => denoise(toBytes(hum), strength).then((output) => energy(toSamples(output).subarray(5 * 48_000)) / energy(hum.subarray(5 * 48_000)));
    const energy = (signal: Int16Array): number => signal.reduce((sum, x) => sum + x * x, 0);
    expect(10 * Math.log10(await left(0.874))).toBeLessThan(-35);
    // At 0.25 the dry part (0.75 of the mix) keeps half the hum: about -8.5 dB of it.
    expect(10 * Math.log10(await left(0.25))).toBeGreaterThan(-10);
    expect(10 * Math.log10(await left(0.25))).toBeLessThan(-7);
  });

  it('gives a DC offset back as it came, while the noise on it is removed', async () => {
    const noise = toSamples(await lavfiPcm('anoisesrc=color=pink:amplitude=0.05:duration=3:seed=4'));
    const offset = Int16Array.from(noise, (x) => x + 1500);
    const denoised = toSamples(await denoise(toBytes(offset), 1));
    const mean = (signal: Int16Array): number => signal.subarray(4800).reduce((sum, x) => sum + x, 0) / (signal.length - 4800);
    expect(mean(denoised)).toBeCloseTo(mean(offset), -1);
    const spread = (signal: Int16Array): number => {
      const centre = mean(signal);
      return signal.subarray(4800).reduce((sum, x) => sum + (x - centre) ** 2, 0);
    };
    expect(10 * Math.log10(spread(denoised) / spread(offset))).toBeLessThan(-10);
  });

  it('refuses a strength outside 0..1', async () => {
    const error = await runner.run(denoiseCommand(process.execPath, 1.5), { timeoutMs: 30_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProcessFailedError);
    expect(error).toMatchObject({ exitCode: 2 });
  });
});
