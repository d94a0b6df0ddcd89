// Noisy inputs at a known SNR, as apps/render-worker/src/media/denoise-quality.int-spec.ts mixes them:
// the noise looped (or cut) to the speech, scaled against the speech's power over the whole clip,
// the sum scaled to peak at -1 dBFS. Rounded to the 16-bit samples the denoiser reads, so the
// baseline is scored on the very input.

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
