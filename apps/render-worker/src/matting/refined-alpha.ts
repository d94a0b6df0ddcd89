import type { BilinearMap } from './bilinear';
import { lumaOf } from './model-input';

const LUMA = Float32Array.from({ length: 256 }, (_, y) => lumaOf(y));
// Whatever byte a pixel holds, its luma is in this range.
const LUMA_LOW = lumaOf(0);
const LUMA_HIGH = lumaOf(255);
// Far more than float rounding can move an interpolated value.
const SURE_MARGIN = 1e-3;
const MIXED = -1;

export interface AlphaRamp {
  transparentBelow: number;
  opaqueFrom: number;
}

// The guided filter's output at the frame's size: alpha = ramp(a * I + b), with the coefficients a and
// b bilinearly upsampled from the mask's size and I the full-size luma. Most of a frame is plainly
// background or plainly person: where the four coefficient pairs around a pixel give the same fully
// transparent or fully opaque alpha whatever its luma, the span is filled at once; only the band along
// the edges is computed pixel by pixel. Those pixels get exactly the arithmetic of a row-by-row
// resampling (float32 rows, then a double for the alpha), so the result is the same byte for byte.
export class RefinedAlpha {
  private readonly lowest: Float32Array;
  private readonly highest: Float32Array;
  // Per source column, for the pair of source rows in use: 0, 255, or MIXED.
  private readonly classes: Int16Array;
  // The destination columns whose left neighbour is source column c: [spanStart[c], spanStart[c + 1]).
  // Runs of columns of one class are filled or computed together.
  private readonly spanStart: Int32Array;
  private readonly gain: number;

  constructor(
    private readonly map: BilinearMap,
    private readonly ramp: AlphaRamp,
  ) {
    const sourcePixels = map.sourceWidth * map.sourceHeight;
    this.lowest = new Float32Array(sourcePixels);
    this.highest = new Float32Array(sourcePixels);
    this.classes = new Int16Array(map.sourceWidth);
    this.spanStart = new Int32Array(map.sourceWidth + 1);
    let x = 0;
    for (let c = 0; c <= map.sourceWidth; c++) {
      while (x < map.width && map.x0[x] < c) x++;
      this.spanStart[c] = x;
    }
    this.gain = 255 / (ramp.opaqueFrom - ramp.transparentBelow);
  }

  write(a: Float32Array, b: Float32Array, fullLuma: Uint8Array, alpha: Uint8ClampedArray): void {
    const { map, lowest, highest, classes, spanStart, gain } = this;
    const low = this.ramp.transparentBelow;
    const { width, height, x0, x1, fx, y0, y1, fy, sourceWidth } = map;
    for (let i = 0; i < a.length; i++) {
      const darkest = a[i] * LUMA_LOW;
      const brightest = a[i] * LUMA_HIGH;
      lowest[i] = b[i] + Math.min(darkest, brightest);
      highest[i] = b[i] + Math.max(darkest, brightest);
    }
    let rows = -1;
    for (let y = 0; y < height; y++) {
      const top = y0[y] * sourceWidth;
      const bottom = y1[y] * sourceWidth;
      // Consecutive destination rows mostly share their two source rows.
      if (y0[y] * map.sourceHeight + y1[y] !== rows) {
        rows = y0[y] * map.sourceHeight + y1[y];
        this.classify(top, bottom);
      }
      const f = fy[y];
      const offset = y * width;
      for (let c = 0; c < sourceWidth; ) {
        const sure = classes[c];
        // A run of columns of one class is one fill, or one stretch of pixels to compute.
        let next = c + 1;
        while (next < sourceWidth && classes[next] === sure) next++;
        const start = spanStart[c];
        const end = spanStart[next];
        c = next;
        if (sure !== MIXED) {
          alpha.fill(sure, offset + start, offset + end);
          continue;
        }
        for (let x = start; x < end; x++) {
          const l = x0[x];
          const r = x1[x];
          const t = fx[x];
          const aTop = Math.fround(a[top + l] + t * (a[top + r] - a[top + l]));
          const aBottom = Math.fround(a[bottom + l] + t * (a[bottom + r] - a[bottom + l]));
          const bTop = Math.fround(b[top + l] + t * (b[top + r] - b[top + l]));
          const bBottom = Math.fround(b[bottom + l] + t * (b[bottom + r] - b[bottom + l]));
          const aHere = Math.fround(aTop + f * (aBottom - aTop));
          const bHere = Math.fround(bTop + f * (bBottom - bTop));
          alpha[offset + x] = (aHere * LUMA[fullLuma[offset + x]] + bHere - low) * gain;
        }
      }
    }
  }

  // Which source columns give a sure alpha between the rows `top` and `bottom` (row offsets).
  private classify(top: number, bottom: number): void {
    const { lowest, highest, classes } = this;
    const last = this.map.sourceWidth - 1;
    const transparentAtMost = this.ramp.transparentBelow - SURE_MARGIN;
    const opaqueAtLeast = this.ramp.opaqueFrom + SURE_MARGIN;
    for (let c = 0; c <= last; c++) {
      const n = c < last ? c + 1 : c;
      const high = Math.max(highest[top + c], highest[top + n], highest[bottom + c], highest[bottom + n]);
      const low = Math.min(lowest[top + c], lowest[top + n], lowest[bottom + c], lowest[bottom + n]);
      classes[c] = high <= transparentAtMost ? 0 : low >= opaqueAtLeast ? 255 : MIXED;
    }
  }
}
