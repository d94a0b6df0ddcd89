// Bilinear resampling of a float plane to another size, pixel centres aligned (as ffmpeg and
// OpenCV do): a low-resolution mask becomes a smooth full-size one, never stair-stepped.

export class BilinearMap {
  readonly x0: Int32Array;
  readonly x1: Int32Array;
  readonly fx: Float32Array;
  readonly y0: Int32Array;
  readonly y1: Int32Array;
  readonly fy: Float32Array;

  constructor(
    readonly sourceWidth: number,
    readonly sourceHeight: number,
    readonly width: number,
    readonly height: number,
  ) {
    [this.x0, this.x1, this.fx] = axis(sourceWidth, width);
    [this.y0, this.y1, this.fy] = axis(sourceHeight, height);
  }
}

function axis(source: number, destination: number): [Int32Array, Int32Array, Float32Array] {
  const lower = new Int32Array(destination);
  const upper = new Int32Array(destination);
  const fraction = new Float32Array(destination);
  const scale = source / destination;
  for (let i = 0; i < destination; i++) {
    const position = Math.min(source - 1, Math.max(0, (i + 0.5) * scale - 0.5));
    lower[i] = Math.floor(position);
    upper[i] = Math.min(source - 1, lower[i] + 1);
    fraction[i] = position - lower[i];
  }
  return [lower, upper, fraction];
}

// Resamples `source` (map.sourceWidth x map.sourceHeight) into `out` (map.width x map.height).
// Each source row is resampled across once, into one of two cached rows, then rows are blended.
export function resample(source: Float32Array, map: BilinearMap, out: Float32Array, rows: Float32Array = new Float32Array(map.width * 2)): void {
  const { width, x0, x1, fx, y0, y1, fy, sourceWidth } = map;
  let cachedUpper = -1;
  let cachedLower = -1;
  let lowerRow = 0; // offsets of the two cached rows in `rows`
  let upperRow = width;
  for (let y = 0; y < map.height; y++) {
    if (y0[y] !== cachedLower) {
      if (y0[y] === cachedUpper) [lowerRow, upperRow] = [upperRow, lowerRow];
      else across(source, y0[y] * sourceWidth, x0, x1, fx, rows, lowerRow);
      cachedLower = y0[y];
      cachedUpper = -1;
    }
    if (y1[y] !== cachedUpper) {
      across(source, y1[y] * sourceWidth, x0, x1, fx, rows, upperRow);
      cachedUpper = y1[y];
    }
    const f = fy[y];
    const offset = y * width;
    for (let x = 0; x < width; x++) {
      const top = rows[lowerRow + x];
      out[offset + x] = top + f * (rows[upperRow + x] - top);
    }
  }
}

function across(source: Float32Array, offset: number, x0: Int32Array, x1: Int32Array, fx: Float32Array, rows: Float32Array, into: number): void {
  for (let x = 0; x < x0.length; x++) {
    const left = source[offset + x0[x]];
    rows[into + x] = left + fx[x] * (source[offset + x1[x]] - left);
  }
}
