// @ts-check
// RNNoise's output is its input with band gains applied after a pitch comb filter: on speech the comb
// and the band edges change the waveform itself, so that clean speech came out at 10.5-13 dB SI-SDR
// against itself, most of the error inside loud frames (not gating: a gain per 10 ms frame recovers
// none of it). Here only what RNNoise took away is kept: each short-time spectrum bin of the input is
// scaled by how much RNNoise lowered that bin (its magnitude over the input's, averaged over
// neighbouring bins, at most 1), keeping the input's phase. Clean speech then comes out at 19-22 dB,
// and the noise is removed as well or better (decision 0075).
// Frames of FRAME samples go in as aligned (input, denoised) pairs; each push returns the frame pushed
// before it, gained, once both analysis windows that cover it are done: one frame of look-ahead.
//
// What the gains took away below LOW_BAND_HZ is also put back together as a signal (`removedLow`,
// aligned with the gained frame) and its energy summed against the input's there: RNNoise lumps
// 0-200 Hz into one band, so on clean speech most of what it changes is the voice's fundamental,
// while rumble lives in the same band. The job decides from the whole file's sums whether to give
// that part back (low-band.ts, decision 0087).

const FRAME = 480;
const WINDOW = 2 * FRAME;
const FFT_SIZE = 1024;
// Bins each side averaged into a bin's gain: one bin's ratio is noisy where either magnitude is small.
const SMOOTH_BINS = 1;
const BINS = FFT_SIZE / 2 + 1;
// sin window for analysis and synthesis: its square sums to 1 over two half-overlapping frames.
const SINE = Float64Array.from({ length: WINDOW }, (_, i) => Math.sin((Math.PI * (i + 0.5)) / WINDOW));
// Bins 0..LOW_BINS-1 (at 48 kHz, 46.9 Hz apart) make the low band: up to 281 Hz, under 300 Hz.
const SAMPLE_RATE = 48_000;
const LOW_BAND_HZ = 300;
const LOW_BINS = Math.ceil((LOW_BAND_HZ * FFT_SIZE) / SAMPLE_RATE);
// The low band's inverse transform summed directly (a few bins over the window: cheaper than an FFT),
// from a table of each bin's cosine and sine over the window.
const LOW_COS = Float64Array.from({ length: LOW_BINS * WINDOW }, (_, at) => Math.cos((2 * Math.PI * Math.floor(at / WINDOW) * (at % WINDOW)) / FFT_SIZE));
const LOW_SIN = Float64Array.from({ length: LOW_BINS * WINDOW }, (_, at) => Math.sin((2 * Math.PI * Math.floor(at / WINDOW) * (at % WINDOW)) / FFT_SIZE));

export class SpectralGain {
  constructor() {
    this.previousInput = new Float64Array(FRAME);
    this.previousDenoised = new Float64Array(FRAME);
    this.tail = new Float64Array(FRAME);
    this.gained = new Float64Array(FRAME);
    this.inputRe = new Float64Array(FFT_SIZE);
    this.inputIm = new Float64Array(FFT_SIZE);
    this.denoisedRe = new Float64Array(FFT_SIZE);
    this.denoisedIm = new Float64Array(FFT_SIZE);
    this.inputPower = new Float64Array(BINS);
    this.denoisedPower = new Float64Array(BINS);
    this.started = false;
    // The low band's removed spectrum of the current window, its synthesis, and the overlap carried on.
    this.removedRe = new Float64Array(LOW_BINS);
    this.removedIm = new Float64Array(LOW_BINS);
    this.removedWindow = new Float64Array(WINDOW);
    this.removedTail = new Float64Array(FRAME);
    this.removedLow = new Float64Array(FRAME);
    // Sums over the windows so far of the low band's power: the input's, and what the gains removed.
    this.inputLowEnergy = 0;
    this.removedLowEnergy = 0;
  }

  /**
   * @param {ArrayLike<number>} input the next input frame
   * @param {ArrayLike<number>} denoised RNNoise's output for it, aligned
   * @returns {Float64Array | null} the previous frame gained (valid until the next push), or null for the first
   */
  push(input, denoised) {
    const { inputRe, inputIm, denoisedRe, denoisedIm } = this;
    inputRe.fill(0);
    inputIm.fill(0);
    denoisedRe.fill(0);
    denoisedIm.fill(0);
    for (let i = 0; i < FRAME; i++) {
      inputRe[i] = this.previousInput[i] * SINE[i];
      denoisedRe[i] = this.previousDenoised[i] * SINE[i];
      inputRe[FRAME + i] = input[i] * SINE[FRAME + i];
      denoisedRe[FRAME + i] = denoised[i] * SINE[FRAME + i];
    }
    fft(inputRe, inputIm, false);
    fft(denoisedRe, denoisedIm, false);
    this.applyGains();
    fft(inputRe, inputIm, true);
    const { gained } = this;
    for (let i = 0; i < FRAME; i++) {
      gained[i] = this.tail[i] + inputRe[i] * SINE[i];
      this.tail[i] = inputRe[FRAME + i] * SINE[FRAME + i];
    }
    this.synthesiseRemovedLow();
    this.previousInput.set(input);
    this.previousDenoised.set(denoised);
    const wasStarted = this.started;
    this.started = true;
    return wasStarted ? gained : null;
  }

  // Scales the input's spectrum, in place, by the denoiser's gain per bin.
  applyGains() {
    const { inputRe, inputIm, denoisedRe, denoisedIm, inputPower, denoisedPower } = this;
    for (let k = 0; k < BINS; k++) {
      inputPower[k] = inputRe[k] * inputRe[k] + inputIm[k] * inputIm[k];
      denoisedPower[k] = denoisedRe[k] * denoisedRe[k] + denoisedIm[k] * denoisedIm[k];
    }
    for (let k = 0; k < BINS; k++) {
      let input = 0;
      let denoised = 0;
      for (let j = Math.max(0, k - SMOOTH_BINS); j <= Math.min(BINS - 1, k + SMOOTH_BINS); j++) {
        input += inputPower[j];
        denoised += denoisedPower[j];
      }
      const gain = input > 0 ? Math.min(1, Math.sqrt(denoised / input)) : 0;
      if (k < LOW_BINS) this.removeLow(k, gain);
      inputRe[k] *= gain;
      inputIm[k] *= gain;
      if (k > 0 && k < BINS - 1) {
        inputRe[FFT_SIZE - k] *= gain;
        inputIm[FFT_SIZE - k] *= gain;
      }
    }
  }

  /**
   * Keeps what the gain takes from low bin k, and counts its power and the input's. Bins past 0 stand
   * for their mirror too.
   * @param {number} k
   * @param {number} gain
   */
  removeLow(k, gain) {
    const removedRe = this.inputRe[k] * (1 - gain);
    const removedIm = this.inputIm[k] * (1 - gain);
    this.removedRe[k] = removedRe;
    this.removedIm[k] = removedIm;
    const mirrored = k === 0 ? 1 : 2;
    this.inputLowEnergy += mirrored * this.inputPower[k];
    this.removedLowEnergy += mirrored * (removedRe * removedRe + removedIm * removedIm);
  }

  // The removed low band back to samples, windowed and overlapped as the gained frame is.
  synthesiseRemovedLow() {
    const { removedRe, removedIm, removedWindow } = this;
    for (let n = 0; n < WINDOW; n++) {
      let value = removedRe[0];
      for (let k = 1, at = WINDOW + n; k < LOW_BINS; k++, at += WINDOW) value += 2 * (removedRe[k] * LOW_COS[at] - removedIm[k] * LOW_SIN[at]);
      removedWindow[n] = value / FFT_SIZE;
    }
    for (let i = 0; i < FRAME; i++) {
      this.removedLow[i] = this.removedTail[i] + removedWindow[i] * SINE[i];
      this.removedTail[i] = removedWindow[FRAME + i] * SINE[FRAME + i];
    }
  }
}

// The FFT's fixed work for FFT_SIZE points, made once: the bit-reversal swaps, and each stage's
// twiddle factors in the order the butterflies take them, made by the same recurrence a stage would
// run (so the transform is the same to the bit), for each direction.
const SWAPS = (() => {
  const swaps = [];
  for (let i = 1, j = 0; i < FFT_SIZE; i++) {
    let bit = FFT_SIZE >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) swaps.push(i, j);
  }
  return Int32Array.from(swaps);
})();
const TWIDDLES = { forward: twiddles(false), inverse: twiddles(true) };

/** @param {boolean} inverse */
function twiddles(inverse) {
  const re = new Float64Array(FFT_SIZE - 1);
  const im = new Float64Array(FFT_SIZE - 1);
  let at = 0;
  for (let length = 2; length <= FFT_SIZE; length <<= 1) {
    const angle = ((inverse ? 2 : -2) * Math.PI) / length;
    const stepRe = Math.cos(angle);
    const stepIm = Math.sin(angle);
    let wRe = 1;
    let wIm = 0;
    for (let k = 0; k < length / 2; k++, at++) {
      re[at] = wRe;
      im[at] = wIm;
      const nextRe = wRe * stepRe - wIm * stepIm;
      wIm = wRe * stepIm + wIm * stepRe;
      wRe = nextRe;
    }
  }
  return { re, im };
}

/**
 * In-place radix-2 FFT of FFT_SIZE points; the inverse is scaled by 1/n.
 * @param {Float64Array} re
 * @param {Float64Array} im
 * @param {boolean} inverse
 */
function fft(re, im, inverse) {
  const n = FFT_SIZE;
  for (let s = 0; s < SWAPS.length; s += 2) {
    const i = SWAPS[s];
    const j = SWAPS[s + 1];
    [re[i], re[j]] = [re[j], re[i]];
    [im[i], im[j]] = [im[j], im[i]];
  }
  const { re: twRe, im: twIm } = inverse ? TWIDDLES.inverse : TWIDDLES.forward;
  for (let length = 2, base = 0; length <= n; base += length / 2, length <<= 1) {
    for (let start = 0; start < n; start += length) {
      for (let k = 0; k < length / 2; k++) {
        const wRe = twRe[base + k];
        const wIm = twIm[base + k];
        const a = start + k;
        const b = a + length / 2;
        const tRe = re[b] * wRe - im[b] * wIm;
        const tIm = re[b] * wIm + im[b] * wRe;
        re[b] = re[a] - tRe;
        im[b] = im[a] - tIm;
        re[a] += tRe;
        im[a] += tIm;
      }
    }
  }
  if (inverse) {
    for (let i = 0; i < n; i++) {
      re[i] /= n;
      im[i] /= n;
    }
  }
}
