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
// the edges is computed pixel by pixel. Consecutive frame rows mostly share their two mask rows, so
// the spans and the band's resampling along those two rows are worked out once per pair. Band pixels
// get exactly the arithmetic of a row-by-row resampling (float32 rows, then a double for the alpha),
// so the result is the same byte for byte.
export class RefinedAlpha {
  // Per source pixel, for it and its right neighbour: 0 or 255 where both give that alpha whatever the
  // luma, else MIXED.
  private readonly pairClasses: Int16Array;
  // Per source column, for the pair of source rows in use: the same, for the four pixels around.
  private readonly classes: Int16Array;
  // The destination columns whose left neighbour is source column c: [spanStart[c], spanStart[c + 1]).
  // Runs of columns of one class are filled or computed together.
  private readonly spanStart: Int32Array;
  // The runs of the row pair in use: destination columns [runStart, runEnd) of one class.
  private readonly runStart: Int32Array;
  private readonly runEnd: Int32Array;
  private readonly runClass: Int16Array;
  private runs = 0;
  // The band's coefficients resampled along the pair's top and bottom rows, by destination column.
  private readonly aTop: Float32Array;
  private readonly aBottom: Float32Array;
  private readonly bTop: Float32Array;
  private readonly bBottom: Float32Array;
  private readonly gain: number;

  constructor(
    private readonly map: BilinearMap,
    private readonly ramp: AlphaRamp,
  ) {
    this.pairClasses = new Int16Array(map.sourceWidth * map.sourceHeight);
    this.classes = new Int16Array(map.sourceWidth);
    this.spanStart = new Int32Array(map.sourceWidth + 1);
    let x = 0;
    for (let c = 0; c <= map.sourceWidth; c++) {
      while (x < map.width && map.x0[x] < c) x++;
      this.spanStart[c] = x;
    }
    this.runStart = new Int32Array(map.sourceWidth);
    this.runEnd = new Int32Array(map.sourceWidth);
    this.runClass = new Int16Array(map.sourceWidth);
    this.aTop = new Float32Array(map.width);
    this.aBottom = new Float32Array(map.width);
    this.bTop = new Float32Array(map.width);
    this.bBottom = new Float32Array(map.width);
    this.gain = 255 / (ramp.opaqueFrom - ramp.transparentBelow);
  }

  write(a: Float32Array, b: Float32Array, fullLuma: Uint8Array, alpha: Uint8ClampedArray): void {
    const { map, runStart, runEnd, runClass, aTop, aBottom, bTop, bBottom, gain } = this;
    const low = this.ramp.transparentBelow;
    const { width, height, fy, y0, y1 } = map;
    this.classifyPixels(a, b);
    let rows = -1;
    for (let y = 0; y < height; y++) {
      if (y0[y] * map.sourceHeight + y1[y] !== rows) {
        rows = y0[y] * map.sourceHeight + y1[y];
        this.prepareRows(a, b, y0[y] * map.sourceWidth, y1[y] * map.sourceWidth);
      }
      const f = fy[y];
      const offset = y * width;
      for (let run = 0; run < this.runs; run++) {
        const sure = runClass[run];
        const end = runEnd[run];
        if (sure !== MIXED) {
          alpha.fill(sure, offset + runStart[run], offset + end);
          continue;
        }
        for (let x = runStart[run]; x < end; x++) {
          const aHere = Math.fround(aTop[x] + f * (aBottom[x] - aTop[x]));
          const bHere = Math.fround(bTop[x] + f * (bBottom[x] - bTop[x]));
          alpha[offset + x] = (aHere * LUMA[fullLuma[offset + x]] + bHere - low) * gain;
        }
      }
    }
  }

  // The runs between the source rows `top` and `bottom` (row offsets), and the band's coefficients
  // resampled along both rows (a Float32Array store rounds as the float32 rows of a resampler do).
  private prepareRows(a: Float32Array, b: Float32Array, top: number, bottom: number): void {
    const { classes, spanStart, runStart, runEnd, runClass, aTop, aBottom, bTop, bBottom } = this;
    const { x0, x1, fx, sourceWidth } = this.map;
    this.classify(top, bottom);
    let runs = 0;
    for (let c = 0; c < sourceWidth; ) {
      const sure = classes[c];
      let next = c + 1;
      while (next < sourceWidth && classes[next] === sure) next++;
      const start = spanStart[c];
      const end = spanStart[next];
      c = next;
      runStart[runs] = start;
      runEnd[runs] = end;
      runClass[runs++] = sure;
      if (sure !== MIXED) continue;
      for (let x = start; x < end; x++) {
        const l = x0[x];
        const r = x1[x];
        const t = fx[x];
        aTop[x] = a[top + l] + t * (a[top + r] - a[top + l]);
        aBottom[x] = a[bottom + l] + t * (a[bottom + r] - a[bottom + l]);
        bTop[x] = b[top + l] + t * (b[top + r] - b[top + l]);
        bBottom[x] = b[bottom + l] + t * (b[bottom + r] - b[bottom + l]);
      }
    }
    this.runs = runs;
  }

  // Which source pixels give a sure alpha whatever the luma (the lowest and highest alpha they can give,
  // rounded to float32 as the resampled rows are), then which do so together with their right neighbour
  // (the last column with itself).
  private classifyPixels(a: Float32Array, b: Float32Array): void {
    const { pairClasses } = this;
    const { sourceWidth, sourceHeight } = this.map;
    const transparentAtMost = this.ramp.transparentBelow - SURE_MARGIN;
    const opaqueAtLeast = this.ramp.opaqueFrom + SURE_MARGIN;
    for (let i = 0; i < a.length; i++) {
      const darkest = a[i] * LUMA_LOW;
      const brightest = a[i] * LUMA_HIGH;
      const highest = Math.fround(b[i] + Math.max(darkest, brightest));
      const lowest = Math.fround(b[i] + Math.min(darkest, brightest));
      pairClasses[i] = highest <= transparentAtMost ? 0 : lowest >= opaqueAtLeast ? 255 : MIXED;
    }
    for (let row = 0; row < sourceWidth * sourceHeight; row += sourceWidth) {
      for (let i = row; i < row + sourceWidth - 1; i++) if (pairClasses[i] !== pairClasses[i + 1]) pairClasses[i] = MIXED;
    }
  }

  // Which source columns give a sure alpha between the rows `top` and `bottom` (row offsets): those
  // whose four pixels around all give the same one.
  private classify(top: number, bottom: number): void {
    const { pairClasses, classes } = this;
    for (let c = 0; c < this.map.sourceWidth; c++) {
      const above = pairClasses[top + c];
      classes[c] = above === pairClasses[bottom + c] ? above : MIXED;
    }
  }
}
