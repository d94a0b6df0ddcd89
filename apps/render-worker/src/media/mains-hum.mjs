// @ts-check
// Mains hum (50 or 60 Hz and its harmonics, from ground loops and lighting) is a set of steady lines
// that RNNoise takes for little more than noise: +2.6 dB SI-SDR at 5 dB SNR (bench:denoise-quality).
// It is found on the first seconds of the audio, harmonic by harmonic: a line stands well above the
// spectrum a few hertz either side in three quarters of them, where speech's own harmonics, which glide,
// do not, nor a held vowel for that long. Each line found is fitted (its cosine and sine) over the last
// FIT_SECONDS and subtracted: what lies beside it, speech included, keeps its phase, where a notch
// filter shifted it (decision 0076).

const MAINS = [50, 60];
// Harmonics looked at: buzz carries odd harmonics far up; above this RNNoise does well enough.
const MAX_HARMONIC = 24;
// A harmonic is a line where its power is this many times the mean power NEIGHBOURS_HZ either side.
const LINE_OVER_NEIGHBOURS = 10;
const NEIGHBOURS_HZ = [-9, -6, 6, 9];
// ...and carries at least this share of the audio's power (a line in near-silence is rounding).
const LINE_SHARE = 1e-5;
// The looked-at audio is cut in this many parts; a line is one in all but one of them (a word may
// cover it in one).
const PARTS = 4;
const PARTS_WITH_LINE = PARTS - 1;
// Mains is there when at least this many of its harmonics are lines.
const MIN_LINES = 3;
// A line is fitted over this much of the audio just before each sample: whole periods of 50 and 60 Hz
// and their harmonics alike (so each fit is exact for any of them), long enough for a fit as narrow as
// a few hertz, short enough to follow mains, which drifts by hundredths of a hertz.
const FIT_SECONDS = 0.3;

/**
 * Power of `samples` at `frequency` (Goertzel), normalised by their count.
 * @param {ArrayLike<number>} samples
 * @param {number} frequency
 * @param {number} sampleRate
 */
function powerAt(samples, frequency, sampleRate) {
  const coefficient = 2 * Math.cos((2 * Math.PI * frequency) / sampleRate);
  let previous = 0;
  let beforePrevious = 0;
  for (let i = 0; i < samples.length; i++) {
    const current = samples[i] + coefficient * previous - beforePrevious;
    beforePrevious = previous;
    previous = current;
  }
  return (previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious) / samples.length;
}

/**
 * The mains harmonics that stand out as lines in `samples`, in hertz; none when there is no hum.
 * @param {ArrayLike<number>} samples
 * @param {number} sampleRate
 * @returns {number[]}
 */
export function detectHum(samples, sampleRate) {
  const length = Math.floor(samples.length / PARTS);
  const parts = Array.from({ length: PARTS }, (_, part) => Float64Array.from({ length }, (_, i) => samples[part * length + i]));
  let best = /** @type {number[]} */ ([]);
  for (const mains of MAINS) {
    const lines = [];
    for (let harmonic = 1; harmonic <= MAX_HARMONIC; harmonic++) {
      const frequency = mains * harmonic;
      if (parts.filter((part) => isLine(part, frequency, sampleRate)).length >= PARTS_WITH_LINE) lines.push(frequency);
    }
    if (lines.length >= MIN_LINES && lines.length > best.length) best = lines;
  }
  return best;
}

/**
 * Whether `samples` hold a steady line at `frequency`.
 * @param {Float64Array} samples
 * @param {number} frequency
 * @param {number} sampleRate
 */
function isLine(samples, frequency, sampleRate) {
  if (samples.length === 0) return false;
  const power = powerAt(samples, frequency, sampleRate);
  const around = NEIGHBOURS_HZ.reduce((sum, offset) => sum + powerAt(samples, frequency + offset, sampleRate), 0) / NEIGHBOURS_HZ.length;
  let meanSquare = 0;
  for (let i = 0; i < samples.length; i++) meanSquare += samples[i] * samples[i];
  meanSquare /= samples.length;
  // A sine of amplitude A gives powerAt A^2 n / 4, and has a mean square of A^2 / 2.
  const linePower = (2 * power) / samples.length;
  return power > LINE_OVER_NEIGHBOURS * around && linePower >= LINE_SHARE * meanSquare;
}

// The lines, each fitted over the last FIT_SECONDS of audio and subtracted from the next sample,
// frame after frame. Over whole periods the running sums of x cos and x sin are the line's
// coefficients; a sample leaving the window has the phase of the one coming in.
export class HumLines {
  /**
   * @param {number[]} frequencies
   * @param {number} sampleRate
   */
  constructor(frequencies, sampleRate) {
    this.window = Math.round(FIT_SECONDS * sampleRate);
    this.past = new Float64Array(this.window);
    this.at = 0;
    this.sample = 0;
    this.lines = frequencies.map((frequency) => ({ step: (2 * Math.PI * frequency) / sampleRate, cosSum: 0, sinSum: 0 }));
  }

  /**
   * Fills the window with the audio's start, as if it had come just before: the hum repeats over the
   * window, so the first samples are cleaned as well as the rest.
   * @param {ArrayLike<number>} start the audio's first samples
   */
  prime(start) {
    const { window, past } = this;
    for (let i = 0; i < window; i++) past[i] = i < start.length ? start[i] : 0;
    for (const line of this.lines) {
      line.cosSum = 0;
      line.sinSum = 0;
      for (let i = 0; i < window; i++) {
        const phase = line.step * (i - window);
        line.cosSum += past[i] * Math.cos(phase);
        line.sinSum += past[i] * Math.sin(phase);
      }
    }
  }

  /** @param {Float32Array} frame cleaned in place */
  process(frame) {
    const { past, window, lines } = this;
    if (lines.length === 0) return;
    const scale = 2 / window;
    for (let i = 0; i < frame.length; i++, this.sample++) {
      const x = frame[i];
      const change = x - past[this.at];
      let hum = 0;
      for (const line of lines) {
        const phase = line.step * this.sample;
        const cos = Math.cos(phase);
        const sin = Math.sin(phase);
        hum += scale * (line.cosSum * cos + line.sinSum * sin);
        line.cosSum += change * cos;
        line.sinSum += change * sin;
      }
      past[this.at] = x;
      this.at = this.at + 1 === window ? 0 : this.at + 1;
      frame[i] = x - hum;
    }
  }
}
