// @ts-check
// Measures what the denoiser writes, as it writes it (BS.1770-4 at 48 kHz mono): the K-weighted
// energy and the true peak of every 10 ms frame. The job keeps the frames of the output it keeps and
// gates their energies into integrated loudness over all parts together (denoised-loudness.ts), so a
// file denoised in parts is measured as one.
//
// Saved as Float64 pairs in the machine's byte order, for the job on the same machine: frame 0's sum
// of squared K-weighted samples, its true peak (linear), then frame 1's, ... A last frame shorter
// than 10 ms is left out: no 400 ms block ends inside it.
import { writeFileSync } from 'node:fs';

const FRAME = 480;

// K-weighting: the standard's high shelf, then its high-pass (BS.1770-4, table 1 and table 2).
const SHELF = [1.53512485958697, -2.69169618940638, 1.19839281085285, -1.69065929318241, 0.73248077421585];
const HIGHPASS = [1, -2, 1, -1.99004745483398, 0.99007225036621];

// The standard's 4x interpolator (BS.1770-4, annex 2): 48 taps as 4 phases of 12, each giving one
// of the four points between two samples from the 12 samples around them. The table is its own
// mirror (phase 3 is phase 0 reversed, phase 2 phase 1), so it reads the same oldest sample first.
const PHASES = [
  [0.001708984375, 0.010986328125, -0.0196533203125, 0.033203125, -0.0594482421875, 0.1373291015625, 0.97216796875, -0.102294921875, 0.047607421875, -0.0266113281250, 0.014892578125, -0.00830078125],
  [-0.0291748046875, 0.029296875, -0.0517578125, 0.089111328125, -0.16650390625, 0.465087890625, 0.77978515625, -0.2003173828125, 0.1015625, -0.0582275390625, 0.0330810546875, -0.0189208984375],
  [-0.0189208984375, 0.0330810546875, -0.0582275390625, 0.1015625, -0.2003173828125, 0.77978515625, 0.465087890625, -0.16650390625, 0.089111328125, -0.0517578125, 0.029296875, -0.0291748046875],
  [-0.00830078125, 0.014892578125, -0.0266113281250, 0.047607421875, -0.102294921875, 0.97216796875, 0.1373291015625, -0.0594482421875, 0.033203125, -0.0196533203125, 0.010986328125, 0.001708984375],
];
const TAPS = 12;
// An interpolated value is at most this many times the largest of its 12 samples: windows whose
// samples all stay below the highest peak so far divided by it are skipped (their frame's peak may
// then read low, but never the highest of the file: the job takes the highest frame).
const MAX_GAIN = Math.max(...PHASES.map((phase) => phase.reduce((sum, tap) => sum + Math.abs(tap), 0)));

export class LoudnessMeter {
  constructor() {
    this.position = 0; // samples seen so far
    this.shelf = [0, 0, 0, 0]; // x1, x2, y1, y2
    this.highpass = [0, 0, 0, 0];
    this.history = new Float64Array(2 * TAPS); // the last 12 samples, twice, so a window is one slice
    this.historyAt = 0;
    this.lastLoud = -TAPS; // the last sample at or over the skip threshold
    this.peak = 0; // over all frames so far: what a window must beat to matter
    /** @type {number[]} */
    this.frames = []; // energy, peak, energy, peak...
    // The frame being filled, and the one before it while the points between its last samples are
    // still to come (they need the next frame's first 6 samples).
    this.filling = { energy: 0, peak: 0 };
    /** @type {{ energy: number, peak: number } | null} */
    this.finishing = null;
  }

  /** @param {Int16Array} samples the next output samples */
  add(samples) {
    for (let i = 0; i < samples.length; i++) {
      const x = samples[i] / 32768;
      const at = this.position++;
      const inFrame = at % FRAME;
      if (inFrame === 0 && at > 0) {
        this.finishing = this.filling;
        this.filling = { energy: 0, peak: 0 };
      }
      const weighted = biquad(HIGHPASS, this.highpass, biquad(SHELF, this.shelf, x));
      this.filling.energy += weighted * weighted;
      this.remember(x, at);
      this.raisePeak(this.filling, Math.abs(x));
      // The points between samples at - 6 and at - 5, now that the 12 around them are known.
      const left = inFrame >= TAPS / 2 ? this.filling : this.finishing;
      if (left) this.interpolatePeak(left, at);
      if (inFrame === TAPS / 2 - 1 && this.finishing) this.close(this.finishing);
    }
  }

  /** @param {string} path */
  save(path) {
    if (this.finishing) this.close(this.finishing);
    if (this.position > 0 && this.position % FRAME === 0) this.close(this.filling);
    writeFileSync(path, new Float64Array(this.frames));
  }

  /**
   * @param {number} x
   * @param {number} at
   */
  remember(x, at) {
    this.history[this.historyAt] = x;
    this.history[this.historyAt + TAPS] = x;
    this.historyAt = (this.historyAt + 1) % TAPS;
    if (Math.abs(x) * MAX_GAIN >= this.peak) this.lastLoud = at;
  }

  /**
   * The four interpolated points between the window's middle samples, while any of its samples could
   * still lift the peak.
   * @param {{ energy: number, peak: number }} frame the frame of the left one
   * @param {number} at
   */
  interpolatePeak(frame, at) {
    if (at - this.lastLoud >= TAPS) return;
    const window = this.history.subarray(this.historyAt, this.historyAt + TAPS);
    for (const phase of PHASES) {
      let value = 0;
      for (let tap = 0; tap < TAPS; tap++) value += phase[tap] * window[tap];
      this.raisePeak(frame, Math.abs(value));
    }
  }

  /**
   * @param {{ energy: number, peak: number }} frame
   * @param {number} size
   */
  raisePeak(frame, size) {
    if (size > frame.peak) frame.peak = size;
    if (size > this.peak) this.peak = size;
  }

  /** @param {{ energy: number, peak: number }} frame */
  close(frame) {
    this.frames.push(frame.energy, frame.peak);
    this.finishing = null;
  }
}

/**
 * One sample through a biquad (direct form I). coefficients: b0, b1, b2, a1, a2; state: x1, x2, y1, y2.
 * @param {number[]} c
 * @param {number[]} s
 * @param {number} x
 */
function biquad(c, s, x) {
  const y = c[0] * x + c[1] * s[0] + c[2] * s[1] - c[3] * s[2] - c[4] * s[3];
  s[1] = s[0];
  s[0] = x;
  s[3] = s[2];
  s[2] = y;
  return y;
}
