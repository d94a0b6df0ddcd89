// Steadies the matte over time without smearing what moves. Per pixel, the new mask is blended
// with the previous result at a rate set by how much the picture itself changed there: where the
// picture is still, mask flicker is averaged away; where it moves, the new mask is taken as it is.

export interface SmoothingSettings {
  // Share of the new mask taken where the picture is still (1 would turn smoothing off).
  stillRate: number;
  // Luma change (0..1) below which a pixel counts as still, and from which it counts as moving.
  stillBelow: number;
  movingFrom: number;
  // Mean luma change that marks a cut: the next mask is taken as it is everywhere.
  cutFrom: number;
}

export const DEFAULT_SMOOTHING: SmoothingSettings = { stillRate: 0.3, stillBelow: 0.015, movingFrom: 0.06, cutFrom: 0.2 };

export class TemporalSmoother {
  private readonly previousMask: Float32Array;
  private readonly previousLuma: Float32Array;
  private readonly change: Float32Array;
  private readonly rowMax: Float32Array;
  private started = false;

  constructor(
    private readonly width: number,
    private readonly height: number,
    private readonly settings: SmoothingSettings = DEFAULT_SMOOTHING,
  ) {
    const pixels = width * height;
    this.previousMask = new Float32Array(pixels);
    this.previousLuma = new Float32Array(pixels);
    this.change = new Float32Array(pixels);
    this.rowMax = new Float32Array(pixels);
  }

  // Smooths `mask` in place; `luma` is the picture at the mask's size.
  smooth(mask: Float32Array, luma: Float32Array): void {
    const { previousMask, previousLuma, settings } = this;
    if (this.started && this.meanChange(luma) < settings.cutFrom) {
      this.dilateChange();
      const span = settings.movingFrom - settings.stillBelow;
      for (let i = 0; i < mask.length; i++) {
        const moving = Math.min(1, Math.max(0, (this.change[i] - settings.stillBelow) / span));
        const rate = settings.stillRate + (1 - settings.stillRate) * moving;
        mask[i] = previousMask[i] + rate * (mask[i] - previousMask[i]);
      }
    }
    previousMask.set(mask);
    previousLuma.set(luma);
    this.started = true;
  }

  private meanChange(luma: Float32Array): number {
    let total = 0;
    for (let i = 0; i < luma.length; i++) {
      this.change[i] = Math.abs(luma[i] - this.previousLuma[i]);
      total += this.change[i];
    }
    return total / luma.length;
  }

  // A moving edge changes the picture on one side first: taking each pixel's largest change in its
  // 3x3 neighbourhood lets the mask follow the whole edge.
  private dilateChange(): void {
    const { width, height, change, rowMax: rows } = this;
    for (let y = 0; y < height; y++) {
      const row = y * width;
      for (let x = 0; x < width; x++) {
        const left = change[row + Math.max(0, x - 1)];
        const right = change[row + Math.min(width - 1, x + 1)];
        rows[row + x] = Math.max(left, change[row + x], right);
      }
    }
    for (let y = 0; y < height; y++) {
      const up = Math.max(0, y - 1) * width;
      const row = y * width;
      const down = Math.min(height - 1, y + 1) * width;
      for (let x = 0; x < width; x++) change[row + x] = Math.max(rows[up + x], rows[row + x], rows[down + x]);
    }
  }
}
