import { BilinearMap } from './bilinear';
import { BilinearResampler } from './testing/bilinear-resampler';

function resized(source: number[], sourceWidth: number, sourceHeight: number, width: number, height: number): number[] {
  const out: number[] = [];
  new BilinearResampler(new BilinearMap(sourceWidth, sourceHeight, width, height), 1).run([Float32Array.from(source)], (_, [row]) => out.push(...row));
  return out;
}

// A plane whose value is x + 10 y: bilinear resampling reproduces it exactly between the samples.
function linearPlane(width: number, height: number): number[] {
  return Array.from({ length: width * height }, (_, i) => (i % width) + 10 * Math.floor(i / width));
}

// Where destination pixel i's centre falls on the source axis, held inside the outer samples.
function sourcePosition(i: number, source: number, destination: number): number {
  return Math.min(source - 1, Math.max(0, ((i + 0.5) * source) / destination - 0.5));
}

function expectCloseTo(actual: number[], expected: number[]): void {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((value, i) => expect(value).toBeCloseTo(expected[i], 5));
}

describe('BilinearResampler', () => {
  it('keeps a constant plane constant', () => {
    expectCloseTo(resized(Array(12).fill(0.7), 4, 3, 9, 7), Array(63).fill(0.7));
  });

  it('aligns pixel centres: a two-pixel ramp holds its end values at the edges and rises evenly between', () => {
    expect(resized([0, 1], 2, 1, 8, 1)).toEqual([0, 0, 0.125, 0.375, 0.625, 0.875, 1, 1]);
  });

  it('returns the same values at the same size', () => {
    const plane = [0.1, 0.9, 0.3, 0.4, 0.2, 0.8];
    expectCloseTo(resized(plane, 3, 2, 3, 2), plane);
  });

  it('downsamples by interpolating at the destination pixel centres', () => {
    expect(resized([0, 1, 2, 3], 4, 1, 2, 1)).toEqual([0.5, 2.5]);
  });

  it.each([
    [3, 3, 6, 6],
    [4, 4, 3, 3],
    [5, 2, 7, 9],
    [6, 9, 4, 5],
  ])('interpolates in both directions when resampling %ix%i to %ix%i', (sourceWidth, sourceHeight, width, height) => {
    const expected = Array.from({ length: width * height }, (_, i) => {
      const x = sourcePosition(i % width, sourceWidth, width);
      const y = sourcePosition(Math.floor(i / width), sourceHeight, height);
      return x + 10 * y;
    });
    expectCloseTo(resized(linearPlane(sourceWidth, sourceHeight), sourceWidth, sourceHeight, width, height), expected);
  });

  it('resamples several planes in step, handing each destination row over in order', () => {
    const map = new BilinearMap(3, 3, 6, 5);
    const rowsSeen: number[] = [];
    const first: number[] = [];
    const second: number[] = [];
    new BilinearResampler(map, 2).run([Float32Array.from(linearPlane(3, 3)), Float32Array.from(linearPlane(3, 3).map((v) => -v))], (y, [a, b]) => {
      rowsSeen.push(y);
      first.push(...a);
      second.push(...b);
    });
    expect(rowsSeen).toEqual([0, 1, 2, 3, 4]);
    expect(second).toEqual(first.map((v) => -v));
    expectCloseTo(first, resized(linearPlane(3, 3), 3, 3, 6, 5));
  });
});
