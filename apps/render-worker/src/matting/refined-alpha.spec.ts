import { BilinearMap } from './bilinear';
import { GuidedFilter } from './guided-filter';
import { DEFAULT_MATTE } from './matte-builder';
import { lumaOf } from './model-input';
import { RefinedAlpha } from './refined-alpha';
import { BilinearResampler } from './testing/bilinear-resampler';

const LUMA = Float32Array.from({ length: 256 }, (_, y) => lumaOf(y));

// Every pixel computed the plain way: both coefficient planes resampled row by row, then the ramp.
function reference(map: BilinearMap, a: Float32Array, b: Float32Array, fullLuma: Uint8Array): Uint8ClampedArray {
  const alpha = new Uint8ClampedArray(map.width * map.height);
  const low = DEFAULT_MATTE.transparentBelow;
  const gain = 255 / (DEFAULT_MATTE.opaqueFrom - low);
  new BilinearResampler(map, 2).run([a, b], (y, [aRow, bRow]) => {
    for (let x = 0; x < map.width; x++) alpha[y * map.width + x] = (aRow[x] * LUMA[fullLuma[y * map.width + x]] + bRow[x] - low) * gain;
  });
  return alpha;
}

// A seeded generator: the same planes on every run.
function random(seed: number): () => number {
  let state = seed;
  return () => ((state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

// A person-like mask: a soft blob in the middle, 0 far from it and 1 inside.
function blobMask(width: number, height: number, next: () => number): Float32Array {
  const [cx, cy, r] = [width * (0.3 + 0.4 * next()), height * (0.3 + 0.4 * next()), Math.min(width, height) * (0.15 + 0.2 * next())];
  return Float32Array.from({ length: width * height }, (_, i) => {
    const d = Math.hypot((i % width) - cx, Math.floor(i / width) - cy) - r;
    const v = 1 / (1 + Math.exp(d * 2));
    return v < 1e-4 ? 0 : v;
  });
}

describe('RefinedAlpha', () => {
  it.each([
    [32, 18, 640, 360],
    [24, 32, 300, 401],
    [17, 13, 17, 13],
    [16, 9, 1280, 720],
  ])('gives the same bytes as resampling every pixel, for a %ix%i mask on a %ix%i frame', (sourceWidth, sourceHeight, width, height) => {
    const next = random(sourceWidth * 1000 + height);
    const map = new BilinearMap(sourceWidth, sourceHeight, width, height);
    const refined = new RefinedAlpha(map, DEFAULT_MATTE);
    for (let round = 0; round < 5; round++) {
      const luma = Float32Array.from({ length: sourceWidth * sourceHeight }, () => next());
      const filter = new GuidedFilter(sourceWidth, sourceHeight, DEFAULT_MATTE.guided);
      filter.solve(luma, blobMask(sourceWidth, sourceHeight, next));
      const fullLuma = Uint8Array.from({ length: width * height }, () => Math.floor(next() * 256));
      const alpha = new Uint8ClampedArray(width * height);
      refined.write(filter.a, filter.b, fullLuma, alpha);
      expect(Buffer.from(alpha).equals(Buffer.from(reference(map, filter.a, filter.b, fullLuma)))).toBe(true);
    }
  });

  it('fills plain background and plain person without looking at the picture', () => {
    const map = new BilinearMap(4, 4, 8, 8);
    const alpha = new Uint8ClampedArray(64);
    const flat = (value: number) => new Float32Array(16).fill(value);
    new RefinedAlpha(map, DEFAULT_MATTE).write(flat(0), flat(0), new Uint8Array(64).fill(255), alpha);
    expect(alpha.every((value) => value === 0)).toBe(true);
    new RefinedAlpha(map, DEFAULT_MATTE).write(flat(0), flat(1), new Uint8Array(64), alpha);
    expect(alpha.every((value) => value === 255)).toBe(true);
  });
});
