import { GuidedFilter } from './guided-filter';

const SETTINGS = { radius: 2, epsilon: 0.002 };

// The filter's output at the guide's own resolution: q = a * I + b.
function filtered(guide: Float32Array, mask: Float32Array, width: number, height: number, settings = SETTINGS): number[] {
  const filter = new GuidedFilter(width, height, settings);
  filter.solve(guide, mask);
  return Array.from(guide, (value, i) => filter.a[i] * value + filter.b[i]);
}

// Mean over the (2r+1)^2 window clipped to the plane, written the slow way.
function boxMean(plane: number[], width: number, height: number, r: number): number[] {
  return plane.map((_, i) => {
    const x = i % width;
    const y = Math.floor(i / width);
    let sum = 0;
    let count = 0;
    for (let v = Math.max(0, y - r); v <= Math.min(height - 1, y + r); v++) {
      for (let u = Math.max(0, x - r); u <= Math.min(width - 1, x + r); u++) {
        sum += plane[v * width + u];
        count++;
      }
    }
    return sum / count;
  });
}

function plane(width: number, height: number, value: (x: number, y: number) => number): Float32Array {
  return Float32Array.from({ length: width * height }, (_, i) => value(i % width, Math.floor(i / width)));
}

describe('GuidedFilter', () => {
  it('with a flat guide, gives the mask box-averaged twice (once for b, once over the coefficients)', () => {
    const [width, height] = [9, 7];
    const mask = plane(width, height, (x, y) => ((x * 7 + y * 3) % 5) / 4);
    const q = filtered(plane(width, height, () => 0.5), mask, width, height);
    const expected = boxMean(boxMean(Array.from(mask), width, height, 2), width, height, 2);
    q.forEach((value, i) => expect(value).toBeCloseTo(expected[i], 4));
  });

  it("box-averages planes of every width and height around the window's size", () => {
    for (const [width, height] of [[1, 1], [2, 5], [3, 3], [4, 6], [5, 2], [6, 7], [7, 4]]) {
      const mask = plane(width, height, (x, y) => ((x * 7 + y * 3) % 5) / 4);
      const q = filtered(plane(width, height, () => 0.5), mask, width, height);
      const expected = boxMean(boxMean(Array.from(mask), width, height, 2), width, height, 2);
      q.forEach((value, i) => expect(value).toBeCloseTo(expected[i], 4));
    }
  });

  it('clips the window at the sides of the plane', () => {
    // Radius larger than the plane: every window covers it all, so q is the mask's plain mean.
    const mask = Float32Array.from([0, 1, 1, 0, 0, 1]);
    const q = filtered(new Float32Array(6).fill(0.5), mask, 3, 2, { radius: 4, epsilon: 0.002 });
    q.forEach((value) => expect(value).toBeCloseTo(0.5, 4));
  });

  it('returns a constant mask unchanged whatever the guide', () => {
    const guide = plane(8, 6, (x, y) => (x < 4 ? 0.1 : 0.9) + 0.01 * y);
    filtered(guide, new Float32Array(48).fill(0.35), 8, 6).forEach((value) => expect(value).toBeCloseTo(0.35, 4));
  });

  it('sharpens a blurry mask edge where the guide has a sharp one', () => {
    const [width, height] = [16, 4];
    const guide = plane(width, height, (x) => (x < 8 ? 0.1 : 0.9));
    // A ramp from x = 4 to x = 12, centred on the guide's edge between x = 7 and x = 8.
    const mask = plane(width, height, (x) => Math.min(1, Math.max(0, (x - 3.5) / 8)));
    const row = filtered(guide, mask, width, height).slice(0, width);
    const maskStep = mask[8] - mask[7];
    expect(row[8] - row[7]).toBeGreaterThan(2 * maskStep);
    expect(row[7]).toBeLessThan(mask[7]);
    expect(row[8]).toBeGreaterThan(mask[8]);
    for (let x = 1; x < width; x++) expect(row[x]).toBeGreaterThanOrEqual(row[x - 1]);
  });

  it('keeps the mask closer to its own shape with a larger epsilon', () => {
    const [width, height] = [16, 4];
    const guide = plane(width, height, (x) => (x < 8 ? 0.1 : 0.9));
    const mask = plane(width, height, (x) => Math.min(1, Math.max(0, (x - 3.5) / 8)));
    const sharp = filtered(guide, mask, width, height, { radius: 2, epsilon: 0.002 });
    const soft = filtered(guide, mask, width, height, { radius: 2, epsilon: 1 });
    expect(soft[8] - soft[7]).toBeLessThan(sharp[8] - sharp[7]);
  });

  // The filter written the slow way: every mean over the whole plane, in doubles.
  function reference(guide: Float32Array, mask: Float32Array, width: number, height: number): { a: number[]; b: number[] } {
    const mean = (values: number[]) => boxMean(values, width, height, SETTINGS.radius);
    const I = Array.from(guide);
    const p = Array.from(mask);
    const [meanI, meanP] = [mean(I), mean(p)];
    const meanIp = mean(I.map((value, i) => value * p[i]));
    const meanII = mean(I.map((value) => value * value));
    const a = meanI.map((m, i) => (meanIp[i] - m * meanP[i]) / (meanII[i] - m * m + SETTINGS.epsilon));
    const b = meanP.map((m, i) => m - a[i] * meanI[i]);
    return { a: mean(a), b: mean(b) };
  }

  it('works on the mask around its non-zero pixels only, with the same coefficients as the whole plane would give', () => {
    const [width, height] = [40, 30];
    const guide = plane(width, height, (x, y) => 0.2 + 0.6 * ((x * 13 + y * 7) % 11) / 10);
    for (const [cx, cy] of [[20, 15], [1, 28], [38, 2]]) {
      const mask = plane(width, height, (x, y) => (Math.abs(x - cx) <= 3 && Math.abs(y - cy) <= 2 ? 0.2 + 0.8 * ((x + y) % 3) / 2 : 0));
      const filter = new GuidedFilter(width, height, SETTINGS);
      filter.solve(guide, mask);
      const expected = reference(guide, mask, width, height);
      filter.a.forEach((value, i) => expect(value).toBeCloseTo(expected.a[i], 4));
      filter.b.forEach((value, i) => expect(value).toBeCloseTo(expected.b[i], 4));
      // Beyond the reach of the two windows nothing is left, not even rounding.
      filter.a.forEach((value, i) => {
        if (Math.abs((i % width) - cx) > 3 + 4 || Math.abs(Math.floor(i / width) - cy) > 2 + 4) expect([value, filter.b[i]]).toEqual([0, 0]);
      });
    }
  });

  it('gives 0 everywhere for a mask that is 0 everywhere, whatever was solved before', () => {
    const filter = new GuidedFilter(8, 6, SETTINGS);
    const guide = plane(8, 6, (x) => x / 8);
    filter.solve(guide, new Float32Array(48).fill(0.5));
    filter.solve(guide, new Float32Array(48));
    expect([...filter.a, ...filter.b].every((value) => value === 0)).toBe(true);
  });
});
