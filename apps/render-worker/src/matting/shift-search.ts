import type { PictureSize } from './region-crop';

// Whether a picture moved as a whole against a reference (decision 0067): the grid's luma is compared
// with the reference's in place and shifted up to REACH grid pixels each way, on the cells whose luma
// differs from their right and lower neighbours' by TEXTURE in all (a flat wall fits any shift). A
// shift that fits SHIFT_GAIN times better than in place, where in place is off by more than NOISE a
// cell on average, means the camera moved; with fewer than MIN_TEXTURED_CELLS to judge on, nothing can
// be told. At most JUDGED_CELLS of the textured cells are judged, spread evenly in reading order: a
// textured room offers tens of thousands, each compared at 25 shifts, which cost more than the rest of
// the frame's matting, and a whole picture's shift shows as clearly on a few thousand.
// A camera's auto-exposure brightens or darkens the whole picture, and on a wall's light falloff that
// fits a shift towards its darker or lighter side better than in place. So each shift is compared at
// its own exposure: the reference times the gain that fits it best (least squares, within GAIN_RANGE).
// A change of exposure fits in place; a pan fits shifted, whatever the exposure.
const REACH = 2;
const TEXTURE = 0.05;
const MIN_TEXTURED_CELLS = 50;
const SHIFT_GAIN = 0.8;
const NOISE = 0.01;
const JUDGED_CELLS = 2048;
const GAIN_RANGE = [0.5, 2] as const;

export type ShiftVerdict = 'moved' | 'in place' | 'unknown';

export interface ShiftReference {
  // The reference's luma (0..1) on the grid.
  luma: Float32Array;
  // Whether cell `g` may be judged on: it shows the background in both pictures, the reference is
  // known there.
  usable(g: number): boolean;
}

export class ShiftSearch {
  // The misfit at each shift tried.
  private readonly errors = new Float64Array((2 * REACH + 1) ** 2);
  // Per shift, the sums its gain is read from (the picture times the shifted reference, the shifted
  // reference squared), then that gain.
  private readonly products = new Float64Array((2 * REACH + 1) ** 2);
  private readonly squares = new Float64Array((2 * REACH + 1) ** 2);
  private readonly gains = new Float64Array((2 * REACH + 1) ** 2);
  // The textured cells this frame may be judged on.
  private readonly textured: Int32Array;

  // `step`: every how many rows and columns a cell is looked at.
  constructor(
    private readonly grid: PictureSize,
    private readonly step: 1 | 2,
  ) {
    this.textured = new Int32Array(Math.ceil(grid.width / step) * Math.ceil(grid.height / step));
  }

  judge(luma: Float32Array, reference: ShiftReference): ShiftVerdict {
    const { width } = this.grid;
    const cells = this.texturedCells(luma, reference);
    if (cells < MIN_TEXTURED_CELLS) return 'unknown';
    const { products, squares, gains } = this;
    const errors = this.errors.fill(0);
    products.fill(0);
    squares.fill(0);
    const there = reference.luma;
    const judged = Math.min(cells, JUDGED_CELLS);
    for (let n = 0; n < judged; n++) {
      const g = this.textured[Math.floor((n * cells) / judged)];
      const here = luma[g];
      let k = 0;
      for (let dy = -REACH; dy <= REACH; dy++) {
        for (let dx = -REACH; dx <= REACH; dx++, k++) {
          const shifted = there[g + dy * width + dx];
          products[k] += here * shifted;
          squares[k] += shifted * shifted;
        }
      }
    }
    for (let k = 0; k < gains.length; k++) gains[k] = squares[k] > 0 ? Math.min(GAIN_RANGE[1], Math.max(GAIN_RANGE[0], products[k] / squares[k])) : 1;
    for (let n = 0; n < judged; n++) {
      const g = this.textured[Math.floor((n * cells) / judged)];
      const here = luma[g];
      let k = 0;
      for (let dy = -REACH; dy <= REACH; dy++) {
        for (let dx = -REACH; dx <= REACH; dx++, k++) errors[k] += abs(here - gains[k] * there[g + dy * width + dx]);
      }
    }
    const inPlace = errors[(errors.length - 1) / 2];
    return Math.min(...errors) < SHIFT_GAIN * inPlace && inPlace > NOISE * judged ? 'moved' : 'in place';
  }

  // The cells, at every `step`-th row and column and far enough from the edge for every shift, whose
  // luma has texture and the reference may be judged on, into `textured`; returns how many.
  private texturedCells(luma: Float32Array, reference: ShiftReference): number {
    const { width, height } = this.grid;
    let cells = 0;
    for (let y = REACH; y < height - REACH; y += this.step) {
      for (let x = REACH; x < width - REACH; x += this.step) {
        const g = y * width + x;
        const here = luma[g];
        if (abs(luma[g + 1] - here) + abs(luma[g + width] - here) >= TEXTURE && reference.usable(g)) this.textured[cells++] = g;
      }
    }
    return cells;
  }
}

function abs(value: number): number {
  return value < 0 ? -value : value;
}
