// @ts-check
// What lets the denoiser's wasm modules be warmed ahead of a job (decision 0110): each compiled once
// per process, and what their prepare() runs: frames enough for V8 to hand their hot functions to its
// optimizing compiler (it does so once they have run a while, on a background thread), and the quiet
// noise they are made of.
import { readFileSync } from 'node:fs';

/** @type {Map<string, Promise<WebAssembly.Module>>} */
const compiled = new Map();

// The wasm at `path`, compiled once per process: every instance runs the same code, so what the
// optimizing compiler made of it for one (prepare) serves the next.
/** @param {string} path */
export function compiledOnce(path) {
  let module = compiled.get(path);
  if (!module) compiled.set(path, (module = WebAssembly.compile(readFileSync(path))));
  return module;
}

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
