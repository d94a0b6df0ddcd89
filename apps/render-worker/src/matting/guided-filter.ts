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
  private readonly rowSums: Float64Array;
  private readonly columnSums: Float64Array;
  // How many columns each window spans once clipped at the sides.
  private readonly columnCounts: Int32Array;
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
    this.rowSums = new Float64Array(pixels + width);
    this.columnSums = new Float64Array(width);
    const r = settings.radius;
    this.columnCounts = Int32Array.from({ length: width }, (_, x) => Math.min(width - 1, x + r) - Math.max(0, x - r) + 1);
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

  // Mean over the (2r+1)^2 window clipped to the plane; `out` may be `source`. Both passes walk
  // memory in order: rows are summed across, then a running sum of those rows moves down. Each pass
  // is split where the window meets the plane's sides rather than testing for them on every pixel,
  // and the column pass adds and drops rows of zeros there instead.
  private box(source: Float32Array, out: Float32Array): void {
    const { width, height, rowSums, columnSums, columnCounts } = this;
    const r = this.settings.radius;
    // x below `entersUntil` adds the pixel entering the window; x from `leavesFrom` drops the one leaving.
    const entersUntil = Math.max(0, width - r);
    const leavesFrom = Math.min(width, r + 1);
    for (let y = 0; y < height; y++) {
      const row = y * width;
      let sum = 0;
      for (let x = 0; x < r && x < width; x++) sum += source[row + x];
      let x = 0;
      for (; x < Math.min(leavesFrom, entersUntil); x++) rowSums[row + x] = sum += source[row + x + r];
      for (; x < entersUntil; x++) {
        sum += source[row + x + r];
        rowSums[row + x] = sum -= source[row + x - r - 1];
      }
      for (; x < leavesFrom; x++) rowSums[row + x] = sum;
      for (; x < width; x++) rowSums[row + x] = sum -= source[row + x - r - 1];
    }
    columnSums.fill(0);
    for (let y = 0; y < r && y < height; y++) for (let x = 0; x < width; x++) columnSums[x] += rowSums[y * width + x];
    // Past the plane's top and bottom the window's rows are the zero row kept after the last.
    const zeroRow = height * width;
    for (let y = 0; y < height; y++) {
      const entering = y + r < height ? (y + r) * width : zeroRow;
      const leaving = y > r ? (y - r - 1) * width : zeroRow;
      const rows = Math.min(height - 1, y + r) - Math.max(0, y - r) + 1;
      const row = y * width;
      for (let x = 0; x < width; x++) {
        columnSums[x] += rowSums[entering + x];
        out[row + x] = (columnSums[x] -= rowSums[leaving + x]) / (rows * columnCounts[x]);
      }
    }
  }
}
