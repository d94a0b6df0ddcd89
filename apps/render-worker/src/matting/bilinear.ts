// Bilinear resampling of a float plane to another size, pixel centres aligned (as ffmpeg and
// OpenCV do): a low-resolution mask becomes a smooth full-size one, never stair-stepped. For each
// destination column and row: its two source neighbours and how far it lies between them.

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
