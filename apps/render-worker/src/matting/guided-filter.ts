// Fast guided filter (He and Sun, 2015, arXiv:1505.00996): the filter's linear coefficients are
// found at the mask's low resolution, guided by the picture's luma there, then applied to the
// full-resolution luma. The matte's edges snap to the picture's edges (hair, fingers) at the cost
// of a few passes over small planes.

export interface GuidedFilterSettings {
  // Window radius in low-resolution pixels.
  radius: number;
  // Regularisation: larger keeps the mask's own shape, smaller follows the picture more.
  epsilon: number;
}

export class GuidedFilter {
  private readonly meanI: Float32Array;
  private readonly meanP: Float32Array;
  private readonly product: Float32Array;
  private readonly meanProduct: Float32Array;
  private readonly scratch: Float32Array;
  private readonly line: Float64Array;
  // The coefficients, after their own box mean: q = a * I + b.
  readonly a: Float32Array;
  readonly b: Float32Array;

  constructor(
    private readonly width: number,
    private readonly height: number,
    private readonly settings: GuidedFilterSettings,
  ) {
    const pixels = width * height;
    this.meanI = new Float32Array(pixels);
    this.meanP = new Float32Array(pixels);
    this.product = new Float32Array(pixels);
    this.meanProduct = new Float32Array(pixels);
    this.scratch = new Float32Array(pixels);
    this.line = new Float64Array(Math.max(width, height));
    this.a = new Float32Array(pixels);
    this.b = new Float32Array(pixels);
  }

  // Fills `a` and `b` from the guide I and the mask p, both width x height.
  solve(guide: Float32Array, mask: Float32Array): void {
    const { meanI, meanP, product, meanProduct, a, b } = this;
    const { epsilon } = this.settings;
    this.box(guide, meanI);
    this.box(mask, meanP);
    for (let i = 0; i < guide.length; i++) product[i] = guide[i] * mask[i];
    this.box(product, meanProduct); // mean(I p)
    for (let i = 0; i < guide.length; i++) product[i] = guide[i] * guide[i];
    this.box(product, a); // mean(I I), for now
    for (let i = 0; i < guide.length; i++) {
      const variance = a[i] - meanI[i] * meanI[i];
      const covariance = meanProduct[i] - meanI[i] * meanP[i];
      a[i] = covariance / (variance + epsilon);
      b[i] = meanP[i] - a[i] * meanI[i];
    }
    this.box(a, a);
    this.box(b, b);
  }

  // Mean over the (2r+1)^2 window clipped to the plane; `out` may be `source`.
  private box(source: Float32Array, out: Float32Array): void {
    const { width, height, scratch, line } = this;
    const r = this.settings.radius;
    for (let y = 0; y < height; y++) runningMean(source, y * width, 1, width, r, scratch, line);
    for (let x = 0; x < width; x++) runningMean(scratch, x, width, height, r, out, line);
  }
}

// Mean over a sliding window of radius r along one line (start, step, length), written in place
// of the same line in `out`; the window is clipped at the ends. `line` is scratch space.
function runningMean(source: Float32Array, start: number, step: number, length: number, r: number, out: Float32Array, line: Float64Array): void {
  for (let i = 0; i < length; i++) line[i] = source[start + i * step];
  let sum = 0;
  for (let i = 0; i < Math.min(r, length); i++) sum += line[i];
  for (let i = 0; i < length; i++) {
    if (i + r < length) sum += line[i + r];
    if (i - r - 1 >= 0) sum -= line[i - r - 1];
    const count = Math.min(length - 1, i + r) - Math.max(0, i - r) + 1;
    out[start + i * step] = sum / count;
  }
}
