// @ts-check
// Mains hum (50 or 60 Hz and its harmonics, from ground loops and lighting) is a set of steady lines
// that RNNoise takes for little more than noise (bench:denoise-quality). Mains is found on a few
// seconds of the audio (MainsHum: the first, then each later stretch until it is): a few of its
// harmonics stand well above the spectrum a few hertz either side, over the whole stretch and over
// each half of it, where speech's own harmonics, which glide, do not. Then every harmonic is fitted
// and subtracted, not only those found: under speech a weak one does not stand out, yet is there. A
// line's fit is the weighted mean of its phasor over short blocks of the last seconds, each block
// weighing the inverse of what was left in it once the hum was taken out: the hum is steady, speech
// comes and goes, so the fit is read mostly from the pauses and takes little of the speech with it
// (decision 0076).

const MAINS = [50, 60];
// Harmonics fitted: buzz carries odd harmonics far up; above this RNNoise does well enough.
const MAX_HARMONIC = 24;
// Looking for mains. A harmonic is a line where its power is this many times the mean power at these
// neighbouring frequencies, in DFT bins of the stretch looked at (0.5 Hz over 2 s)...
const LINE_OVER_NEIGHBOURS = 8;
const NEIGHBOUR_BINS = [-9, -6, 6, 9];
// ...and over each half on its own, at least this many times (a held note or vowel is not in both)...
const HALF_LINE_OVER_NEIGHBOURS = 3;
// ...and carries at least this share of the audio's power (a line in near-silence is rounding).
const LINE_SHARE = 1e-5;
// Mains is there when at least this many of its harmonics are lines.
const MIN_LINES = 2;
// Lines are looked for on this much of the audio's start (a line 0.2 Hz off nominal is still within
// a bin at the 24th harmonic)...
const DETECTION_SECONDS = 2;
// ...and not on less: too little to tell a line from its neighbours.
const MIN_DETECTION_SECONDS = 0.5;
// The grid's frequency is then measured on all the audio given, to within this, up to this far from
// nominal (grids stay within 0.2 Hz): 0.002 Hz off turns the 7th harmonic's line by a tenth of a
// radian between the middle of the fit and its end.
const DRIFT_STEP_HZ = 0.002;
const MAX_DRIFT_HZ = 0.2;
// The fit: blocks of whole periods of 50 and 60 Hz, over this many of the last blocks.
const BLOCK_SECONDS = 0.1;
const FIT_BLOCKS = 30;
// A block's weight is 1 / (its mean square left + this): digital silence, in the samples' units
// (16-bit steps), weighs no more than near-silence.
const QUIET_FLOOR = 1;

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

// Hum is looked for on every stretch of audio until it is found, and on speech no harmonic is a line:
// each is first screened on the stretch low-passed and kept one sample in SCREEN_FACTOR (an eighth
// of the work), and only one whose ratio to its neighbours there reaches LINE_OVER_NEIGHBOURS /
// SCREEN_MARGIN is tested on the stretch itself. The low-pass (a Blackman-windowed sinc of
// SCREEN_TAPS taps, cut at SCREEN_CUTOFF_HZ) passes every harmonic fitted, a line and its neighbours
// alike (their ratio holds), and keeps what would fold onto them far below them. A stretch is never
// shorter than the taps (MIN_DETECTION_SECONDS).
const SCREEN_FACTOR = 8;
const SCREEN_CUTOFF_HZ = 2000;
const SCREEN_TAPS = 8 * SCREEN_FACTOR + 1;
const SCREEN_MARGIN = 2;

/**
 * The low-pass's taps at `sampleRate`, summing to 1.
 * @param {number} sampleRate
 */
function screenTaps(sampleRate) {
  const middle = (SCREEN_TAPS - 1) / 2;
  const cutoff = SCREEN_CUTOFF_HZ / sampleRate;
  const taps = Float64Array.from({ length: SCREEN_TAPS }, (_, n) => {
    const t = n - middle;
    const sinc = t === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * t) / (Math.PI * t);
    const blackman = 0.42 - 0.5 * Math.cos((2 * Math.PI * n) / (SCREEN_TAPS - 1)) + 0.08 * Math.cos((4 * Math.PI * n) / (SCREEN_TAPS - 1));
    return sinc * blackman;
  });
  const sum = taps.reduce((total, tap) => total + tap, 0);
  return taps.map((tap) => tap / sum);
}

/**
 * `samples` low-passed and kept one in SCREEN_FACTOR (the screen's stretch).
 * @param {Float64Array} samples
 * @param {number} sampleRate
 */
function screened(samples, sampleRate) {
  const taps = screenTaps(sampleRate);
  const kept = new Float64Array(Math.max(0, Math.floor((samples.length - SCREEN_TAPS) / SCREEN_FACTOR) + 1));
  for (let k = 0; k < kept.length; k++) {
    let sum = 0;
    for (let n = 0, at = k * SCREEN_FACTOR; n < SCREEN_TAPS; n++, at++) sum += taps[n] * samples[at];
    kept[k] = sum;
  }
  return kept;
}

/**
 * How many times the power at `frequency` stands above its neighbours in `samples`.
 * @param {Float64Array} samples
 * @param {number} frequency
 * @param {number} sampleRate
 * @param {number} [power] the power at `frequency`, when it is known already
 */
function lineRatio(samples, frequency, sampleRate, power = powerAt(samples, frequency, sampleRate)) {
  const bin = sampleRate / samples.length;
  const around = NEIGHBOUR_BINS.reduce((sum, offset) => sum + powerAt(samples, frequency + offset * bin, sampleRate), 0);
  return power / (around / NEIGHBOUR_BINS.length);
}

/**
 * The frequency of the mains whose hum is in `samples`, measured to DRIFT_STEP_HZ; null when there is none.
 * @param {ArrayLike<number>} samples the audio's start: 4 s measure the frequency well enough for the fit
 * @param {number} sampleRate
 * @returns {number | null}
 */
export function detectMains(samples, sampleRate) {
  if (samples.length < MIN_DETECTION_SECONDS * sampleRate) return null;
  const all = Float64Array.from({ length: Math.min(samples.length, DETECTION_SECONDS * sampleRate) }, (_, i) => samples[i]);
  const half = Math.floor(all.length / 2);
  const halves = [all.subarray(0, half), all.subarray(half, 2 * half)];
  let meanSquare = 0;
  for (let i = 0; i < all.length; i++) meanSquare += all[i] * all[i];
  meanSquare /= all.length;
  const screen = screened(all, sampleRate);
  const screenRate = sampleRate / SCREEN_FACTOR;
  let best = { mains: 0, lines: /** @type {number[]} */ ([]) };
  for (const mains of MAINS) {
    const lines = harmonicsOf(mains, sampleRate).filter((frequency) => {
      if (lineRatio(screen, frequency, screenRate) < LINE_OVER_NEIGHBOURS / SCREEN_MARGIN) return false;
      const power = powerAt(all, frequency, sampleRate);
      // A sine of amplitude A gives powerAt A^2 n / 4, and has a mean square of A^2 / 2.
      return (
        (2 * power) / all.length >= LINE_SHARE * meanSquare &&
        lineRatio(all, frequency, sampleRate, power) >= LINE_OVER_NEIGHBOURS &&
        halves.every((part) => lineRatio(part, frequency, sampleRate) >= HALF_LINE_OVER_NEIGHBOURS)
      );
    });
    if (lines.length >= MIN_LINES && lines.length > best.lines.length) best = { mains, lines };
  }
  if (best.lines.length === 0) return null;
  return measuredMains(Float64Array.from(samples), best.mains, best.lines.map((line) => line / best.mains), sampleRate);
}

/**
 * The fundamental near `mains` at which the found harmonics carry the most power, read, like the fit,
 * from short blocks weighed by the inverse of their power: speech beside a line pulls a plain
 * spectrum's peak by hundredths of a hertz, which at the 7th harmonic turns the line a fifth of a turn
 * over the fit.
 * @param {Float64Array} samples
 * @param {number} mains
 * @param {number[]} harmonics
 * @param {number} sampleRate
 */
function measuredMains(samples, mains, harmonics, sampleRate) {
  const block = Math.round(BLOCK_SECONDS * sampleRate);
  const blocks = Math.floor(samples.length / block);
  const weights = new Float64Array(blocks);
  // Each block's phasor of each harmonic at nominal frequency, as [cos, sin] sums.
  const phasors = harmonics.map(() => new Float64Array(2 * blocks));
  for (let b = 0; b < blocks; b++) {
    let squares = 0;
    for (let i = b * block; i < (b + 1) * block; i++) squares += samples[i] * samples[i];
    weights[b] = 1 / (squares / block + QUIET_FLOOR);
    harmonics.forEach((harmonic, h) => {
      const step = (2 * Math.PI * harmonic * mains) / sampleRate;
      let cos = 0;
      let sin = 0;
      for (let i = b * block; i < (b + 1) * block; i++) {
        cos += samples[i] * Math.cos(step * i);
        sin += samples[i] * Math.sin(step * i);
      }
      phasors[h][2 * b] = weights[b] * cos;
      phasors[h][2 * b + 1] = weights[b] * sin;
    });
  }
  let best = { frequency: mains, power: -1 };
  const steps = Math.round(MAX_DRIFT_HZ / DRIFT_STEP_HZ);
  for (let step = -steps; step <= steps; step++) {
    const drift = step * DRIFT_STEP_HZ;
    let power = 0;
    harmonics.forEach((harmonic, h) => {
      // A line drift hertz off turns its block phasor by 2 pi drift harmonic t: turned back here.
      let cos = 0;
      let sin = 0;
      for (let b = 0; b < blocks; b++) {
        const turn = (2 * Math.PI * drift * harmonic * (b + 0.5) * block) / sampleRate;
        cos += phasors[h][2 * b] * Math.cos(turn) - phasors[h][2 * b + 1] * Math.sin(turn);
        sin += phasors[h][2 * b + 1] * Math.cos(turn) + phasors[h][2 * b] * Math.sin(turn);
      }
      power += cos * cos + sin * sin;
    });
    if (power > best.power) best = { frequency: mains + drift, power };
  }
  return best.frequency;
}

/**
 * @param {number} fundamental
 * @param {number} sampleRate
 */
function harmonicsOf(fundamental, sampleRate) {
  const harmonics = [];
  for (let harmonic = 1; harmonic <= MAX_HARMONIC && harmonic * fundamental < sampleRate / 2; harmonic++) harmonics.push(harmonic * fundamental);
  return harmonics;
}

// Every harmonic of the mains, fitted and subtracted frame after frame. Each sample is cleaned with
// the fit of the blocks before it; each line's cosine and sine run as a rotation, set exactly again
// at every block.
export class HumLines {
  /**
   * @param {number | null} fundamental the mains' frequency, or null when there is no hum
   * @param {number} sampleRate
   */
  constructor(fundamental, sampleRate) {
    const frequencies = fundamental === null ? [] : harmonicsOf(fundamental, sampleRate);
    const count = frequencies.length;
    this.count = count;
    this.block = Math.round(BLOCK_SECONDS * sampleRate);
    this.steps = Float64Array.from(frequencies, (frequency) => (2 * Math.PI * frequency) / sampleRate);
    this.rotateCos = this.steps.map(Math.cos);
    this.rotateSin = this.steps.map(Math.sin);
    this.cos = new Float64Array(count);
    this.sin = new Float64Array(count);
    // The fit: the hum is cosFit * cos + sinFit * sin, line by line.
    this.cosFit = new Float64Array(count);
    this.sinFit = new Float64Array(count);
    // The block under way: sums of x cos and x sin per line, and of what was left squared.
    this.cosSums = new Float64Array(count);
    this.sinSums = new Float64Array(count);
    this.leftSquares = 0;
    this.inBlock = 0;
    this.sample = 0;
    // The last FIT_BLOCKS blocks: their weights and phasors (line after line within a block).
    this.weights = new Float64Array(FIT_BLOCKS);
    this.cosPhasors = new Float64Array(FIT_BLOCKS * count);
    this.sinPhasors = new Float64Array(FIT_BLOCKS * count);
    this.blocks = 0;
    this.setOscillators();
  }

  /**
   * Fits the lines on audio before it is cleaned: first with each block weighed by all it holds, then
   * by what that fit leaves. `audio` is either what is cleaned next (the audio's start, so its first
   * samples are cleaned as well as the rest) or, `continuing`, what came just before it.
   * @param {ArrayLike<number>} audio
   * @param {boolean} [continuing]
   */
  prime(audio, continuing = false) {
    const { block, count } = this;
    if (count === 0) return;
    const length = Math.min(FIT_BLOCKS, Math.floor(audio.length / block)) * block;
    // Continuing, the fit is read from the latest blocks, which end just before the next sample.
    const from = continuing ? audio.length - length : 0;
    // The fit stays as it was through each pass: nothing in the first, the first's in the second.
    for (let pass = 0; pass < 2; pass++) {
      this.blocks = 0;
      this.sample = 0;
      this.setOscillators();
      for (let i = 0; i < length; i++) {
        this.take(audio[from + i]);
        if (this.inBlock === block) this.endBlock(false);
      }
      this.fit();
    }
    this.sample = continuing ? length : 0;
    this.setOscillators();
  }

  /** @param {Float32Array} frame cleaned in place */
  process(frame) {
    if (this.count === 0) return;
    for (let i = 0; i < frame.length; i++) {
      frame[i] -= this.take(frame[i]);
      if (this.inBlock === this.block) this.endBlock(true);
    }
  }

  /**
   * Adds one sample to the block under way and moves on; returns the hum fitted at it.
   * @param {number} x
   */
  take(x) {
    const { count, cos, sin, cosFit, sinFit, cosSums, sinSums, rotateCos, rotateSin } = this;
    let hum = 0;
    for (let line = 0; line < count; line++) {
      const c = cos[line];
      const s = sin[line];
      hum += cosFit[line] * c + sinFit[line] * s;
      cosSums[line] += x * c;
      sinSums[line] += x * s;
      cos[line] = c * rotateCos[line] - s * rotateSin[line];
      sin[line] = s * rotateCos[line] + c * rotateSin[line];
    }
    const left = x - hum;
    this.leftSquares += left * left;
    this.inBlock++;
    this.sample++;
    return hum;
  }

  /** @param {boolean} refit whether the fit follows each block */
  endBlock(refit) {
    const { count, block } = this;
    const slot = this.blocks % FIT_BLOCKS;
    this.weights[slot] = 1 / (this.leftSquares / block + QUIET_FLOOR);
    for (let line = 0; line < count; line++) {
      this.cosPhasors[slot * count + line] = (2 * this.cosSums[line]) / block;
      this.sinPhasors[slot * count + line] = (2 * this.sinSums[line]) / block;
    }
    this.cosSums.fill(0);
    this.sinSums.fill(0);
    this.leftSquares = 0;
    this.inBlock = 0;
    this.blocks++;
    this.setOscillators();
    if (refit) this.fit();
  }

  fit() {
    const { count } = this;
    const held = Math.min(this.blocks, FIT_BLOCKS);
    let total = 0;
    for (let slot = 0; slot < held; slot++) total += this.weights[slot];
    this.cosFit.fill(0);
    this.sinFit.fill(0);
    if (total === 0) return;
    for (let slot = 0; slot < held; slot++) {
      const weight = this.weights[slot] / total;
      for (let line = 0; line < count; line++) {
        this.cosFit[line] += weight * this.cosPhasors[slot * count + line];
        this.sinFit[line] += weight * this.sinPhasors[slot * count + line];
      }
    }
  }

  // Exact at the current sample, so the rotations' rounding never builds up past a block.
  setOscillators() {
    for (let line = 0; line < this.count; line++) {
      this.cos[line] = Math.cos(this.steps[line] * this.sample);
      this.sin[line] = Math.sin(this.steps[line] * this.sample);
    }
  }
}

// Mains hum in a stream: looked for on its first seconds (held back, then cleaned from their start),
// and, while none is found, again on every stretch as long after them: hum that starts later (sound
// that begins after seconds of silence, a motor that switches on) is taken out from the stretch after
// the one it was found in.
export class MainsHum {
  /**
   * @param {number} sampleRate
   * @param {number} stretch samples looked at each time
   */
  constructor(sampleRate, stretch) {
    this.sampleRate = sampleRate;
    /** @type {HumLines | null} */
    this.lines = null;
    this.stretch = new Float32Array(stretch);
    this.filled = 0;
    // Samples about to come through process() that were looked at already (the held start).
    this.seen = 0;
  }

  /** @param {Float32Array} held the stream's first samples, about to be cleaned */
  start(held) {
    this.look(held, false);
    this.seen = held.length;
  }

  /** @param {Float32Array} frame cleaned in place once hum was found */
  process(frame) {
    if (this.lines) return this.lines.process(frame);
    const { stretch } = this;
    for (let i = 0; i < frame.length; i++) {
      if (this.seen > 0) {
        this.seen--;
        continue;
      }
      stretch[this.filled++] = frame[i];
      if (this.filled === stretch.length) {
        this.filled = 0;
        this.look(stretch, true);
      }
    }
  }

  /**
   * @param {Float32Array} audio
   * @param {boolean} continuing whether it came before what is cleaned next (else it is cleaned next)
   */
  look(audio, continuing) {
    const mains = detectMains(audio, this.sampleRate);
    if (mains === null) return;
    this.lines = new HumLines(mains, this.sampleRate);
    this.lines.prime(audio, continuing);
  }
}
