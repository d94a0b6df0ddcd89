import { Writable } from 'node:stream';

// In-memory PCM helpers for the denoiser tests (short signals only).

export class PcmCollector extends Writable {
  private readonly chunks: Buffer[] = [];
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.chunks.push(chunk);
    done();
  }
  get bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
  get samples(): Int16Array {
    return toSamples(this.bytes);
  }
}

export function toSamples(bytes: Buffer): Int16Array {
  const samples = new Int16Array(bytes.length >> 1);
  for (let i = 0; i < samples.length; i++) samples[i] = bytes.readInt16LE(i * 2);
  return samples;
}

export function toBytes(samples: ArrayLike<number>): Buffer {
  const bytes = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) bytes.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(samples[i]))), i * 2);
  return bytes;
}

// The denoised samples with `weight` of the low band the denoiser removed added back, as the job's
// mux mixes them (clean-audio-args.ts), rounded to samples.
export function withLowBand(denoised: Int16Array, lowBand: Int16Array, weight: number): Int16Array {
  return Int16Array.from(denoised, (sample, i) => Math.max(-32768, Math.min(32767, Math.round(sample + weight * lowBand[i]))));
}

// A vowel-like voice (harmonics of a gliding 140 Hz, in syllables) plus white noise, at 48 kHz.
export function noisyVoice(samples: number, noiseAmplitude = 600): Int16Array {
  let seed = 12345;
  const noise = (): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 1073741824 - 1;
  };
  const out = new Int16Array(samples);
  let phase = 0;
  for (let i = 0; i < samples; i++) {
    const t = i / 48000;
    phase += (2 * Math.PI * (140 + 20 * Math.sin(2 * Math.PI * 0.7 * t))) / 48000;
    let voice = 0;
    for (let k = 1; k < 20; k++) voice += Math.sin(k * phase) / k;
    const syllable = Math.sqrt(Math.max(0, Math.sin(2 * Math.PI * 3 * t)));
    out[i] = Math.round(5000 * voice * syllable + noiseAmplitude * noise());
  }
  return out;
}

// The lag (in samples, within ±maxLag) at which `output` best matches `input`.
export function bestLag(output: ArrayLike<number>, input: ArrayLike<number>, maxLag: number): number {
  let best = 0;
  let bestScore = -Infinity;
  for (let lag = -maxLag; lag <= maxLag; lag++) {
    let score = 0;
    for (let i = maxLag; i < input.length - maxLag; i++) score += output[i] * input[i - lag];
    if (score > bestScore) {
      bestScore = score;
      best = lag;
    }
  }
  return best;
}

// Noisy speech at a known SNR, as the denoise-quality test and bench mix it: the noise looped (or cut)
// to the speech, scaled against the speech's power over the whole clip, the sum scaled to peak at
// -1 dBFS. Rounded to the 16-bit samples the denoiser reads, so the baseline is scored on the very input.
const PEAK = 0.89 * 32767;

export function mixAtSnr(speech: Int16Array, noise: Int16Array, snrDb: number): Int16Array {
  const gain = Math.sqrt(power(speech, speech.length) / power(noise, speech.length) / 10 ** (snrDb / 10));
  return peakScaled(Float64Array.from(speech, (sample, i) => sample + gain * noise[i % noise.length]));
}

export function peakScaled(signal: ArrayLike<number>): Int16Array {
  let peak = 0;
  for (let i = 0; i < signal.length; i++) peak = Math.max(peak, Math.abs(signal[i]));
  return Int16Array.from({ length: signal.length }, (_, i) => Math.round((signal[i] * PEAK) / peak));
}

// Mean power over `length` samples, the signal looped.
function power(signal: ArrayLike<number>, length: number): number {
  let sum = 0;
  for (let i = 0; i < length; i++) sum += signal[i % signal.length] ** 2;
  return sum / length;
}
