export interface NdArray {
  shape: number[];
  data: Float32Array;
}

export function ndArray(shape: number[], data: Float32Array = new Float32Array(shape.reduce((a, b) => a * b, 1))): NdArray {
  return { shape, data };
}

// Deterministic values in [-range, range) that are multiples of 1/256, so they survive float16 exactly.
export function randomArray(shape: number[], seed: number, range = 2): NdArray {
  let state = seed >>> 0;
  const next = (): number => {
    // mulberry32
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const array = ndArray(shape);
  for (let i = 0; i < array.data.length; i++) array.data[i] = Math.floor((next() * 2 - 1) * range * 256) / 256;
  return array;
}

// |actual - expected| <= tolerance * (1 + |expected|) everywhere; the message names the worst element.
export function expectClose(actual: NdArray, expected: NdArray, tolerance = 1e-4): void {
  expect(actual.shape).toEqual(expected.shape);
  let worst = 0;
  let worstIndex = -1;
  for (let i = 0; i < expected.data.length; i++) {
    const error = Math.abs(actual.data[i] - expected.data[i]) / (1 + Math.abs(expected.data[i]));
    // NaN compares false, so it is always reported as the worst.
    if (!(error <= worst)) [worst, worstIndex] = [Number.isNaN(error) ? Infinity : error, i];
  }
  if (worst > tolerance) {
    throw new Error(`relative error ${worst} > ${tolerance} at element ${worstIndex}: got ${actual.data[worstIndex]}, expected ${expected.data[worstIndex]}`);
  }
}
