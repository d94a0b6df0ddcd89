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

// The part of the plane the filter works on: columns left..right and rows top..bottom, inclusive.
interface Area {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

export class GuidedFilter {
  private readonly meanI: Float32Array;
  private readonly meanP: Float32Array;
  private readonly product: Float32Array;
  private readonly meanProduct: Float32Array;
  // Each window's row sums and column sums, for the two planes a box mean takes at once.
  private readonly rowSums: [Float64Array, Float64Array];
  private readonly columnSums: [Float64Array, Float64Array];
  // 1 / how many columns each window spans once clipped at the area's sides, for the area's width: the
  // column pass multiplies by it (and by 1 / the rows spanned) rather than dividing each pixel.
  private columnWeights = new Float64Array(0);
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
    this.rowSums = [new Float64Array(pixels + width), new Float64Array(pixels + width)];
    this.columnSums = [new Float64Array(width), new Float64Array(width)];
    this.a = new Float32Array(pixels);
    this.b = new Float32Array(pixels);
  }

  // Fills `a` and `b` from the guide I and the mask p, both width x height. Away from the mask's
  // non-zero pixels both are 0: there the mask's mean and its covariance with I are sums of zeros.
  // So the filter runs only on the rectangle around those pixels, grown by the three windows a
  // coefficient's value reaches through (the mean of a and b, the means a and b are made of, and the
  // pixels those cover); within it every window is the one the whole plane would give.
  solve(guide: Float32Array, mask: Float32Array): void {
    const { meanI, meanP, product, meanProduct, a, b, width } = this;
    const { epsilon } = this.settings;
    a.fill(0);
    b.fill(0);
    const area = this.support(mask);
    if (!area) return;
    this.setColumnWeights(area.right - area.left + 1);
    for (let y = area.top; y <= area.bottom; y++) {
      for (let i = y * width + area.left; i <= y * width + area.right; i++) {
        product[i] = guide[i] * mask[i];
        a[i] = guide[i] * guide[i]; // I I, for now
      }
    }
    this.boxes(area, guide, meanI, mask, meanP);
    this.boxes(area, product, meanProduct, a, a); // mean(I p), mean(I I)
    for (let y = area.top; y <= area.bottom; y++) {
      for (let i = y * width + area.left; i <= y * width + area.right; i++) {
        const variance = a[i] - meanI[i] * meanI[i];
        const covariance = meanProduct[i] - meanI[i] * meanP[i];
        a[i] = covariance / (variance + epsilon);
        b[i] = meanP[i] - a[i] * meanI[i];
      }
    }
    this.boxes(area, a, a, b, b);
  }

  // The rows and columns holding the mask's non-zero pixels, grown by three window radii and kept
  // within the plane; null when the mask is 0 everywhere.
  private support(mask: Float32Array): Area | null {
    const { width, height } = this;
    let [left, right, top, bottom] = [width, -1, height, -1];
    for (let y = 0; y < height; y++) {
      const row = y * width;
      let first = 0;
      while (first < width && mask[row + first] === 0) first++;
      if (first === width) continue;
      let last = width - 1;
      while (mask[row + last] === 0) last--;
      left = Math.min(left, first);
      right = Math.max(right, last);
      top = Math.min(top, y);
      bottom = y;
    }
    if (bottom < 0) return null;
    const reach = 3 * this.settings.radius;
    return { left: Math.max(0, left - reach), right: Math.min(width - 1, right + reach), top: Math.max(0, top - reach), bottom: Math.min(height - 1, bottom + reach) };
  }

  private setColumnWeights(columns: number): void {
    if (this.columnWeights.length === columns) return;
    const r = this.settings.radius;
    this.columnWeights = Float64Array.from({ length: columns }, (_, x) => 1 / (Math.min(columns - 1, x + r) - Math.max(0, x - r) + 1));
  }

  // The mean over the (2r+1)^2 window clipped to the area, of two planes at once (they share the
  // column pass's bookkeeping); an output may be its own source. Both passes walk memory in order:
  // rows are summed across, then a running sum of those rows moves down, adding and dropping the
  // zero row kept after the plane's last where the window passes the area's top and bottom.
  private boxes(area: Area, first: Float32Array, firstOut: Float32Array, second: Float32Array, secondOut: Float32Array): void {
    const { width, height, columnWeights } = this;
    const { left, right, top, bottom } = area;
    const [firstRows, secondRows] = this.rowSums;
    const [firstColumns, secondColumns] = this.columnSums;
    const r = this.settings.radius;
    this.sumRows(area, first, firstRows);
    this.sumRows(area, second, secondRows);
    firstColumns.fill(0);
    secondColumns.fill(0);
    for (let y = top; y < top + r && y <= bottom; y++) {
      for (let x = left; x <= right; x++) {
        firstColumns[x] += firstRows[y * width + x];
        secondColumns[x] += secondRows[y * width + x];
      }
    }
    const zeroRow = height * width;
    for (let y = top; y <= bottom; y++) {
      const entering = y + r <= bottom ? (y + r) * width : zeroRow;
      const leaving = y - r - 1 >= top ? (y - r - 1) * width : zeroRow;
      const rows = Math.min(bottom, y + r) - Math.max(top, y - r) + 1;
      const row = y * width;
      const perRow = 1 / rows;
      for (let x = left; x <= right; x++) {
        const weight = perRow * columnWeights[x - left];
        firstColumns[x] += firstRows[entering + x];
        firstOut[row + x] = (firstColumns[x] -= firstRows[leaving + x]) * weight;
        secondColumns[x] += secondRows[entering + x];
        secondOut[row + x] = (secondColumns[x] -= secondRows[leaving + x]) * weight;
      }
    }
  }

  // Each pixel's sum over its window's columns in its own row, within the area. The pass is split
  // where the window meets the area's sides rather than testing for them on every pixel.
  private sumRows({ left, right, top, bottom }: Area, source: Float32Array, rowSums: Float64Array): void {
    const r = this.settings.radius;
    const columns = right - left + 1;
    // x below `entersUntil` adds the pixel entering the window; x from `leavesFrom` drops the one leaving.
    const entersUntil = Math.max(0, columns - r);
    const leavesFrom = Math.min(columns, r + 1);
    for (let y = top; y <= bottom; y++) {
      const row = y * this.width + left;
      let sum = 0;
      for (let x = 0; x < r && x < columns; x++) sum += source[row + x];
      let x = 0;
      for (; x < Math.min(leavesFrom, entersUntil); x++) rowSums[row + x] = sum += source[row + x + r];
      for (; x < entersUntil; x++) {
        sum += source[row + x + r];
        rowSums[row + x] = sum -= source[row + x - r - 1];
      }
      for (; x < leavesFrom; x++) rowSums[row + x] = sum;
      for (; x < columns; x++) rowSums[row + x] = sum -= source[row + x - r - 1];
    }
  }
}
