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

// Resamples one or more planes of the map's source size to its destination size, row by row:
// each destination row of every plane is handed to `emit` as it is made, so a caller can turn it
// into its output (an alpha row, say) while it is in cache, without a full-size float plane. Each
// source row is resampled across once, into one of two cached rows per plane.
export class BilinearResampler {
  private readonly lower: Float32Array[];
  private readonly upper: Float32Array[];
  private readonly out: Float32Array[];

  constructor(
    private readonly map: BilinearMap,
    planes: number,
  ) {
    const make = () => Array.from({ length: planes }, () => new Float32Array(map.width));
    this.lower = make();
    this.upper = make();
    this.out = make();
  }

  run(sources: readonly Float32Array[], emit: (y: number, rows: readonly Float32Array[]) => void): void {
    const { map, lower, upper, out } = this;
    const { width, x0, x1, fx, y0, y1, fy, sourceWidth } = map;
    let cachedLower = -1;
    let cachedUpper = -1;
    for (let y = 0; y < map.height; y++) {
      for (let p = 0; p < sources.length; p++) {
        if (y0[y] !== cachedLower) {
          if (y0[y] === cachedUpper) [lower[p], upper[p]] = [upper[p], lower[p]];
          else across(sources[p], y0[y] * sourceWidth, x0, x1, fx, lower[p]);
        }
        if (y1[y] !== cachedUpper || y0[y] !== cachedLower) across(sources[p], y1[y] * sourceWidth, x0, x1, fx, upper[p]);
        const top = lower[p];
        const bottom = upper[p];
        const row = out[p];
        const f = fy[y];
        for (let x = 0; x < width; x++) row[x] = top[x] + f * (bottom[x] - top[x]);
      }
      cachedLower = y0[y];
      cachedUpper = y1[y];
      emit(y, out);
    }
  }
}

function across(source: Float32Array, offset: number, x0: Int32Array, x1: Int32Array, fx: Float32Array, into: Float32Array): void {
  for (let x = 0; x < into.length; x++) {
    const left = source[offset + x0[x]];
    into[x] = left + fx[x] * (source[offset + x1[x]] - left);
  }
}
