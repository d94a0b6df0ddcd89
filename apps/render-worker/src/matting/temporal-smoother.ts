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
  private started = false;

  constructor(
    private readonly width: number,
    height: number,
    private readonly settings: SmoothingSettings = DEFAULT_SMOOTHING,
  ) {
    const pixels = width * height;
    this.previousMask = new Float32Array(pixels);
    this.previousLuma = new Float32Array(pixels);
    this.change = new Float32Array(pixels);
  }

  // Smooths `mask` in place; `luma` is the picture at the mask's size. The loops use plain
  // comparisons rather than Math.*: they run on every pixel of every frame. A pixel that is 0 in
  // both masks stays 0 whatever the picture did, so only the others read the change around them:
  // most of a frame is background, and all of it outside a tracked person's crop.
  smooth(mask: Float32Array, luma: Float32Array): void {
    const { previousMask, previousLuma, settings } = this;
    if (this.started && this.meanChange(luma) < settings.cutFrom) {
      const { stillRate, stillBelow } = settings;
      const perUnit = (1 - stillRate) / (settings.movingFrom - stillBelow);
      for (let i = 0; i < mask.length; i++) {
        if (mask[i] === 0 && previousMask[i] === 0) continue;
        const moving = this.changeAround(i) - stillBelow;
        const rate = moving <= 0 ? stillRate : moving * perUnit >= 1 - stillRate ? 1 : stillRate + moving * perUnit;
        mask[i] = previousMask[i] + rate * (mask[i] - previousMask[i]);
      }
    }
    previousMask.set(mask);
    previousLuma.set(luma);
    this.started = true;
  }

  private meanChange(luma: Float32Array): number {
    const { change, previousLuma } = this;
    let total = 0;
    for (let i = 0; i < luma.length; i++) {
      const difference = luma[i] - previousLuma[i];
      change[i] = difference < 0 ? -difference : difference;
      total += change[i];
    }
    return total / luma.length;
  }

  // A moving edge changes the picture on one side first: taking the largest change in pixel i's 3x3
  // neighbourhood lets the mask follow the whole edge.
  private changeAround(i: number): number {
    const { width, change } = this;
    const x = i % width;
    const up = i >= width ? i - width : i;
    const down = i + width < change.length ? i + width : i;
    let largest = change[i];
    if (change[up] > largest) largest = change[up];
    if (change[down] > largest) largest = change[down];
    if (x > 0) {
      if (change[i - 1] > largest) largest = change[i - 1];
      if (change[up - 1] > largest) largest = change[up - 1];
      if (change[down - 1] > largest) largest = change[down - 1];
    }
    if (x < width - 1) {
      if (change[i + 1] > largest) largest = change[i + 1];
      if (change[up + 1] > largest) largest = change[up + 1];
      if (change[down + 1] > largest) largest = change[down + 1];
    }
    return largest;
  }
}
