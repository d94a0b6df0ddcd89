// @ts-check
// Mains hum (50 or 60 Hz and its harmonics, from ground loops and lighting) is a set of steady lines
// that RNNoise takes for little more than noise: +2.6 dB SI-SDR at 5 dB SNR (bench:denoise-quality).
// It is found on the first seconds of the audio, harmonic by harmonic: a line stands well above the
// spectrum a few hertz either side in three quarters of them, where speech's own harmonics, which glide,
// do not, nor a held vowel for that long. Each line found
// is taken out by a narrow notch (a biquad a couple of hertz wide), which leaves the rest of the
// spectrum, speech included, as it was.

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
// Notch width (-3 dB), in hertz: mains drifts by hundredths of a hertz.
const NOTCH_WIDTH_HZ = 3;
// A tenth of a second holds whole periods of 50 and 60 Hz alike.
const WHOLE_PERIODS_SECONDS = 0.1;
const PRIME_SECONDS = 0.5;

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

// A cascade of notches (RBJ biquads, direct form I) filtering frames in place, its state carried
// from frame to frame.
export class HumNotches {
  /**
   * @param {number[]} frequencies
   * @param {number} sampleRate
   */
  constructor(frequencies, sampleRate) {
    this.filters = frequencies.map((frequency) => {
      const w = (2 * Math.PI * frequency) / sampleRate;
      const alpha = Math.sin(w) / (2 * (frequency / NOTCH_WIDTH_HZ));
      const a0 = 1 + alpha;
      return { b0: 1 / a0, b1: (-2 * Math.cos(w)) / a0, b2: 1 / a0, a1: (-2 * Math.cos(w)) / a0, a2: (1 - alpha) / a0, x1: 0, x2: 0, y1: 0, y2: 0 };
    });
  }

  /**
   * A notch takes a tenth of a second to settle, and the hum leaks through meanwhile. Run over whole
   * periods of the audio's start first, it is left in the state that the same hum would have left it
   * in just before the start, so the first samples are notched as well as the rest.
   * @param {ArrayLike<number>} start the audio's first samples
   * @param {number} sampleRate
   */
  prime(start, sampleRate) {
    const step = Math.round(WHOLE_PERIODS_SECONDS * sampleRate);
    const length = Math.floor(Math.min(start.length, PRIME_SECONDS * sampleRate) / step) * step;
    this.process(Float32Array.from({ length }, (_, i) => start[i]));
  }

  /** @param {Float32Array} frame filtered in place */
  process(frame) {
    for (const f of this.filters) {
      for (let i = 0; i < frame.length; i++) {
        const x = frame[i];
        const y = f.b0 * x + f.b1 * f.x1 + f.b2 * f.x2 - f.a1 * f.y1 - f.a2 * f.y2;
        f.x2 = f.x1;
        f.x1 = x;
        f.y2 = f.y1;
        f.y1 = y;
        frame[i] = y;
      }
    }
  }
}
