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
  // The textured cells this frame may be judged on.
  private readonly textured: Int32Array;
  // The cells judged and their luma, gathered once so that each shift's sums run over flat arrays.
  private readonly judgedCells = new Int32Array(JUDGED_CELLS);
  private readonly judgedLuma = new Float64Array(JUDGED_CELLS);

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
    const { errors, judgedCells, judgedLuma } = this;
    const there = reference.luma;
    const judged = Math.min(cells, JUDGED_CELLS);
    for (let n = 0; n < judged; n++) {
      const g = this.textured[Math.floor((n * cells) / judged)];
      judgedCells[n] = g;
      judgedLuma[n] = luma[g];
    }
    // One shift at a time, each sum over the cells in the same order as ever.
    let k = 0;
    for (let dy = -REACH; dy <= REACH; dy++) {
      for (let dx = -REACH; dx <= REACH; dx++, k++) {
        const offset = dy * width + dx;
        let products = 0;
        let squares = 0;
        for (let n = 0; n < judged; n++) {
          const shifted = there[judgedCells[n] + offset];
          products += judgedLuma[n] * shifted;
          squares += shifted * shifted;
        }
        const gain = squares > 0 ? Math.min(GAIN_RANGE[1], Math.max(GAIN_RANGE[0], products / squares)) : 1;
        let error = 0;
        for (let n = 0; n < judged; n++) error += Math.abs(judgedLuma[n] - gain * there[judgedCells[n] + offset]);
        errors[k] = error;
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
        if (Math.abs(luma[g + 1] - here) + Math.abs(luma[g + width] - here) >= TEXTURE && reference.usable(g)) this.textured[cells++] = g;
      }
    }
    return cells;
  }
}
