// @ts-check
// The denoiser's spectral step. GTCRN (gtcrn-stream.mjs) enhances the input, and RNNoise runs on
// that; RNNoise also runs on the input itself. RNNoise's output is its input with band gains applied
// after a pitch comb filter: on speech the comb and the band edges change the waveform itself (clean
// speech came out at 10.5-13 dB SI-SDR against itself, decision 0075), so only what RNNoise took away
// is kept: each short-time spectrum bin of its input is scaled by how much RNNoise lowered that bin
// (its magnitude over its input's, averaged over neighbouring bins, at most 1), keeping the phase.
// GTCRN's model works at 16 kHz and takes 4-18 dB off a voice above it: below CROSSOVER_HZ the output
// is GTCRN's output scaled by RNNoise's gains on it, from there up the input scaled by RNNoise's gains
// on the input, and at most by what GTCRN kept of its own top band (TOP_HZ to the crossover) in the
// same window: hiss above 7.5 kHz goes where GTCRN heard no speech below it (decision 0105).
// Frames of FRAME samples go in as aligned quadruples (input, RNNoise on it, enhanced, RNNoise on
// that); each push returns the frame pushed before it, gained, once both analysis windows that cover
// it are done: one frame of look-ahead.
//
// What the whole step took away below LOW_BAND_HZ (from the input, GTCRN's share included) is also put
// back together as a signal (`removedLow`, aligned with the gained frame) and its energy summed
// against the input's there: RNNoise lumps 0-200 Hz into one band, so on clean speech most of what it
// changes is the voice's fundamental, while rumble lives in the same band. The job decides from the
// whole file's sums whether to give that part back (low-band.ts, decision 0087).

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
// Bins from here up (7.5 kHz) are the input's, under GTCRN's 8 kHz band edge.
const CROSSOVER_HZ = 7500;
const CROSSOVER_BIN = Math.round((CROSSOVER_HZ * FFT_SIZE) / SAMPLE_RATE);
// GTCRN's top band, whose gain holds the bins above the crossover: 6 kHz to it, where sibilants are.
const TOP_HZ = 6000;
const TOP_BIN = Math.round((TOP_HZ * FFT_SIZE) / SAMPLE_RATE);
// The low band's inverse transform summed directly (a few bins over the window: cheaper than an FFT),
// from a table of each bin's cosine and sine over the window.
const LOW_COS = Float64Array.from({ length: LOW_BINS * WINDOW }, (_, at) => Math.cos((2 * Math.PI * Math.floor(at / WINDOW) * (at % WINDOW)) / FFT_SIZE));
const LOW_SIN = Float64Array.from({ length: LOW_BINS * WINDOW }, (_, at) => Math.sin((2 * Math.PI * Math.floor(at / WINDOW) * (at % WINDOW)) / FFT_SIZE));

export class SpectralGain {
  constructor() {
    this.previousInput = new Float64Array(FRAME);
    this.previousInputDenoised = new Float64Array(FRAME);
    this.previousEnhanced = new Float64Array(FRAME);
    this.previousDenoised = new Float64Array(FRAME);
    this.tail = new Float64Array(FRAME);
    this.gained = new Float64Array(FRAME);
    this.inputRe = new Float64Array(FFT_SIZE);
    this.inputIm = new Float64Array(FFT_SIZE);
    this.inputDenoisedRe = new Float64Array(FFT_SIZE);
    this.inputDenoisedIm = new Float64Array(FFT_SIZE);
    this.enhancedRe = new Float64Array(FFT_SIZE);
    this.enhancedIm = new Float64Array(FFT_SIZE);
    this.denoisedRe = new Float64Array(FFT_SIZE);
    this.denoisedIm = new Float64Array(FFT_SIZE);
    this.inputPower = new Float64Array(BINS);
    this.inputDenoisedPower = new Float64Array(BINS);
    this.enhancedPower = new Float64Array(BINS);
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
   * @param {ArrayLike<number>} inputDenoised RNNoise's output for it, aligned
   * @param {ArrayLike<number>} enhanced GTCRN's output for it, aligned
   * @param {ArrayLike<number>} denoised RNNoise's output for the enhanced frame, aligned
   * @returns {Float64Array | null} the previous frame gained (valid until the next push), or null for the first
   */
  push(input, inputDenoised, enhanced, denoised) {
    windowedSpectrum(this.previousInput, input, this.inputRe, this.inputIm);
    windowedSpectrum(this.previousInputDenoised, inputDenoised, this.inputDenoisedRe, this.inputDenoisedIm);
    windowedSpectrum(this.previousEnhanced, enhanced, this.enhancedRe, this.enhancedIm);
    windowedSpectrum(this.previousDenoised, denoised, this.denoisedRe, this.denoisedIm);
    this.applyGains();
    const { enhancedRe, gained } = this;
    fft(enhancedRe, this.enhancedIm, true);
    for (let i = 0; i < FRAME; i++) {
      gained[i] = this.tail[i] + enhancedRe[i] * SINE[i];
      this.tail[i] = enhancedRe[FRAME + i] * SINE[FRAME + i];
    }
    this.synthesiseRemovedLow();
    this.previousInput.set(input);
    this.previousInputDenoised.set(inputDenoised);
    this.previousEnhanced.set(enhanced);
    this.previousDenoised.set(denoised);
    const wasStarted = this.started;
    this.started = true;
    return wasStarted ? gained : null;
  }

  // Makes the output's spectrum in the enhanced one's arrays: below the crossover the enhanced bins
  // scaled by RNNoise's gain on them, from it up the input's scaled by RNNoise's gain on the input,
  // held to GTCRN's gain on its top band.
  applyGains() {
    const { inputRe, inputIm, enhancedRe, enhancedIm } = this;
    powers(inputRe, inputIm, this.inputPower, 0, BINS);
    powers(this.inputDenoisedRe, this.inputDenoisedIm, this.inputDenoisedPower, CROSSOVER_BIN - SMOOTH_BINS, BINS);
    powers(enhancedRe, enhancedIm, this.enhancedPower, 0, CROSSOVER_BIN + SMOOTH_BINS);
    powers(this.denoisedRe, this.denoisedIm, this.denoisedPower, 0, CROSSOVER_BIN + SMOOTH_BINS);
    const topGain = bandGain(this.inputPower, this.enhancedPower, TOP_BIN, CROSSOVER_BIN);
    for (let k = 0; k < BINS; k++) {
      const enhancedBin = k < CROSSOVER_BIN;
      const gain = enhancedBin ? binGain(this.enhancedPower, this.denoisedPower, k) : Math.min(topGain, binGain(this.inputPower, this.inputDenoisedPower, k));
      const sourceRe = enhancedBin ? enhancedRe : inputRe;
      const sourceIm = enhancedBin ? enhancedIm : inputIm;
      const re = sourceRe[k] * gain;
      const im = sourceIm[k] * gain;
      if (k < LOW_BINS) this.removeLow(k, re, im);
      enhancedRe[k] = re;
      enhancedIm[k] = im;
      if (k > 0 && k < BINS - 1) {
        enhancedRe[FFT_SIZE - k] = sourceRe[FFT_SIZE - k] * gain;
        enhancedIm[FFT_SIZE - k] = sourceIm[FFT_SIZE - k] * gain;
      }
    }
  }

  /**
   * Keeps what the step takes from the input's low bin k (the input less the output there), and counts
   * its power and the input's. Bins past 0 stand for their mirror too.
   * @param {number} k
   * @param {number} re the output's bin
   * @param {number} im
   */
  removeLow(k, re, im) {
    const inputRe = this.inputRe[k];
    const inputIm = this.inputIm[k];
    const removedRe = inputRe - re;
    const removedIm = inputIm - im;
    this.removedRe[k] = removedRe;
    this.removedIm[k] = removedIm;
    const mirrored = k === 0 ? 1 : 2;
    this.inputLowEnergy += mirrored * (inputRe * inputRe + inputIm * inputIm);
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

/**
 * Each bin's power from `from` to `to` (exclusive, clamped to the bins).
 * @param {Float64Array} re
 * @param {Float64Array} im
 * @param {Float64Array} power
 * @param {number} from
 * @param {number} to
 */
function powers(re, im, power, from, to) {
  for (let k = Math.max(0, from); k < Math.min(BINS, to); k++) power[k] = re[k] * re[k] + im[k] * im[k];
}

/**
 * How much a step kept of bins [from, to): its output's magnitude over its input's there, at most 1.
 * @param {Float64Array} inputPower
 * @param {Float64Array} outputPower
 * @param {number} from
 * @param {number} to
 */
function bandGain(inputPower, outputPower, from, to) {
  let input = 0;
  let output = 0;
  for (let k = from; k < to; k++) {
    input += inputPower[k];
    output += outputPower[k];
  }
  return input > 0 ? Math.min(1, Math.sqrt(output / input)) : 0;
}

/**
 * How much RNNoise lowered bin k: its gain over SMOOTH_BINS each side of it (one bin's ratio is noisy
 * where either magnitude is small).
 * @param {Float64Array} inputPower
 * @param {Float64Array} outputPower
 * @param {number} k
 */
function binGain(inputPower, outputPower, k) {
  return bandGain(inputPower, outputPower, Math.max(0, k - SMOOTH_BINS), Math.min(BINS, k + SMOOTH_BINS + 1));
}

/**
 * The sine-windowed spectrum of two consecutive frames, into re and im.
 * @param {ArrayLike<number>} previous
 * @param {ArrayLike<number>} current
 * @param {Float64Array} re
 * @param {Float64Array} im
 */
function windowedSpectrum(previous, current, re, im) {
  re.fill(0);
  im.fill(0);
  for (let i = 0; i < FRAME; i++) {
    re[i] = previous[i] * SINE[i];
    re[FRAME + i] = current[i] * SINE[FRAME + i];
  }
  fft(re, im, false);
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
    const swappedRe = re[i];
    re[i] = re[j];
    re[j] = swappedRe;
    const swappedIm = im[i];
    im[i] = im[j];
    im[j] = swappedIm;
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
