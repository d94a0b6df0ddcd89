import type { PictureSize } from './region-crop';

// A shadow dims the wall and keeps its texture; someone in grey before the wall does not (decision
// 0111). The pixels the plate takes for a shadow (darker than their plate by a ratio in shadowRatios,
// the colour dimmed alike) are no evidence on their own: grey and dark clothes pass that test too.
// Over each grid cell and its neighbours within `reach`, the frame's luma at those pixels is
// correlated with the plate's (judge): where the plate has texture and the frame follows it, the wall
// shows through, and the pixels are a shadow. Where the frame does not follow it and varies clearly
// more than the plate does, the pixels carry a texture of their own (hair, a patterned shirt darker
// than a light wall): not a shadow (decision 0113). Otherwise, a plain wall under a plain patch,
// nothing is told.

export interface ShadowTextureSettings {
  // Grid cells each way around a cell whose shadow pixels are judged together.
  reach: number;
  // The correlation from which the frame follows the plate.
  correlationFrom: number;
  // The plate's standard deviation (luma levels, about each cell's mean) from which it has texture:
  // below, the plate's own noise is all there is to follow.
  textureFrom: number;
  // The least share of the region's pixels that must be shadow pixels (counted in the cells that hold
  // two or more): a person's rim darker than the wall mixes in the wall's texture too, but is a thin
  // line, where a shadow worth taking out is a patch.
  shareFrom: number;
  // How much more the frame's standard deviation (luma levels, about each cell's mean) must be than the
  // plate's for a texture of its own: above a camera's grain, which the plate, learned over many
  // frames, has averaged away.
  ownTextureFrom: number;
}

// What the shadow pixels around a cell tell (ShadowTexture.verdict): they follow the plate's texture
// (a shadow), they carry one of their own (something before the wall), or nothing.
export const FOLLOWS = 1;
export const UNTOLD = 2;
export const OWN_TEXTURE = 3;
export type ShadowVerdict = typeof FOLLOWS | typeof UNTOLD | typeof OWN_TEXTURE;

// Fewer pixels than this in a cell's region tell nothing: a correlation of a few is noise.
const MIN_PIXELS = 24;
// Per cell: the count, and the sums of the frame's luma, the plate's, their squares and their product.
const SUMS = 6;

export class ShadowTexture {
  private readonly sums: Float64Array;
  // The cells added to since the last clear, and each cell's verdict this frame (0: not yet judged,
  // else a ShadowVerdict).
  private readonly touched: Int32Array;
  private touchedCount = 0;
  private readonly verdicts: Uint8Array;

  // `cellPixels`: the picture's pixels in one grid cell.
  constructor(
    private readonly grid: PictureSize,
    private readonly cellPixels: number,
    private readonly settings: ShadowTextureSettings,
  ) {
    const cells = grid.width * grid.height;
    this.sums = new Float64Array(cells * SUMS);
    this.touched = new Int32Array(cells);
    this.verdicts = new Uint8Array(cells);
  }

  // Forgets the last frame's pixels.
  clear(): void {
    const { sums, touched, verdicts } = this;
    for (let k = 0; k < this.touchedCount; k++) sums.fill(0, touched[k] * SUMS, (touched[k] + 1) * SUMS);
    this.touchedCount = 0;
    verdicts.fill(0);
  }

  // Whether a shadow pixel was added since the last clear.
  get holdsPixels(): boolean {
    return this.touchedCount > 0;
  }

  // A shadow pixel of grid cell g: its luma and its plate's (at the frame's exposure), in levels.
  add(g: number, luma: number, plate: number): void {
    const { sums } = this;
    const at = g * SUMS;
    if (sums[at] === 0) this.touched[this.touchedCount++] = g;
    sums[at]++;
    sums[at + 1] += luma;
    sums[at + 2] += plate;
    sums[at + 3] += luma * luma;
    sums[at + 4] += plate * plate;
    sums[at + 5] += luma * plate;
  }

  // What the shadow pixels around grid cell g tell, judged once a frame.
  verdict(g: number): ShadowVerdict {
    if (this.verdicts[g] === 0) this.verdicts[g] = this.judge(g);
    return this.verdicts[g] as ShadowVerdict;
  }

  // Each cell's pixels about the cell's own means, pooled over the cells within reach: a soft shadow's
  // edge dims neighbouring cells by different ratios, a ramp the plate does not have, so only the
  // texture inside each cell is compared.
  private judge(g: number): ShadowVerdict {
    const { sums, settings } = this;
    const { width, height } = this.grid;
    const x = g % width;
    const y = (g / width) | 0;
    let n = 0;
    let cells = 0;
    let lumaSquares = 0;
    let plateSquares = 0;
    let products = 0;
    // The cells of two or more pixels, and those among them that vary by ownTextureFrom more than their
    // plate on their own.
    let judged = 0;
    let textured = 0;
    for (let row = Math.max(0, y - settings.reach); row <= Math.min(height - 1, y + settings.reach); row++) {
      for (let column = Math.max(0, x - settings.reach); column <= Math.min(width - 1, x + settings.reach); column++) {
        const at = (row * width + column) * SUMS;
        const count = sums[at];
        cells++;
        // One pixel has no texture about its own mean.
        if (count < 2) continue;
        const cellLuma = sums[at + 3] - (sums[at + 1] * sums[at + 1]) / count;
        const cellPlate = sums[at + 4] - (sums[at + 2] * sums[at + 2]) / count;
        n += count;
        lumaSquares += cellLuma;
        plateSquares += cellPlate;
        products += sums[at + 5] - (sums[at + 1] * sums[at + 2]) / count;
        judged++;
        if (Math.sqrt(Math.max(0, cellLuma) / count) >= Math.sqrt(Math.max(0, cellPlate) / count) + settings.ownTextureFrom) textured++;
      }
    }
    if (n < MIN_PIXELS || n < settings.shareFrom * cells * this.cellPixels || lumaSquares <= 0) return UNTOLD;
    // A plain plate (under textureFrom) has nothing to follow.
    const plateTextured = plateSquares >= n * settings.textureFrom ** 2;
    if (plateTextured && products >= settings.correlationFrom * Math.sqrt(plateSquares * lumaSquares)) return FOLLOWS;
    // A texture of its own varies in most cells; a hard shadow's edge, dimming part of a cell more than
    // the rest, only in the cells along it.
    const varies = Math.sqrt(lumaSquares / n) >= Math.sqrt(Math.max(0, plateSquares) / n) + settings.ownTextureFrom;
    return varies && textured * 2 >= judged ? OWN_TEXTURE : UNTOLD;
  }
}
