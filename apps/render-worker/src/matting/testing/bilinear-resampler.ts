import type { BilinearMap } from '../bilinear';

// Resamples one or more planes of the map's source size to its destination size, row by row, each
// source row resampled across once into float32 rows: the reference the matte's refinement
// (refined-alpha.ts) matches byte for byte, and a model of how the encoder scales a plain matte up.
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
