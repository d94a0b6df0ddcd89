// @ts-check
// What the denoiser's wasm modules run in prepare() (decision 0110): frames enough for V8 to hand their
// hot functions to its optimizing compiler (it does so once they have run a while, on a background
// thread), and the quiet noise they are made of.

// Frames of 10 ms: half a second.
export const WARM_UP_FRAMES = 50;

// `length` samples of noise at about -40 dBFS, in int16 scale, the same every time.
/** @param {number} length */
export function quietNoise(length) {
  let seed = 1;
  return Float32Array.from({ length }, () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed / 2 ** 32 - 0.5) * 650;
  });
}
