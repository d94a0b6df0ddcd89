// @ts-check
// RNNoise (xiph/rnnoise, BSD-3-Clause) built for wasm with SIMD, as @sapphi-red/web-noise-suppressor
// (MIT) ships it for a browser's AudioWorklet; instantiated here with the three functions it imports.
// The plain build beside it (rnnoise.wasm) gives the same frames within float rounding (140 dB under
// them over a minute of speech) in 1.25 times the time.
import { createRequire } from 'node:module';
import { resizeHeap } from './wasm-heap.mjs';
import { compiledOnce, quietNoise, WARM_UP_FRAMES } from './wasm-warmup.mjs';

const WASM = '@sapphi-red/web-noise-suppressor/rnnoise_simd.wasm';
// Samples a frame: 10 ms at 48 kHz.
export const RNNOISE_FRAME = 480;

/**
 * @typedef {{ memory: WebAssembly.Memory, __wasm_call_ctors: () => void, rnnoise_get_frame_size: () => number,
 *   rnnoise_create: (model: number) => number, rnnoise_destroy: (state: number) => void,
 *   rnnoise_process_frame: (state: number, output: number, input: number) => number,
 *   malloc: (bytes: number) => number, free: (pointer: number) => void }} RnnoiseExports
 */

// RNNoise states sharing one instance and one frame buffer in its memory.
export class Rnnoise {
  /** @param {RnnoiseExports} wasm */
  constructor(wasm) {
    this.wasm = wasm;
    this.framePointer = wasm.malloc(RNNOISE_FRAME * 4);
    if (!this.framePointer) throw new Error('RNNoise: could not allocate its frame');
    /** @type {number[]} */
    this.states = [];
  }

  /** @returns {Promise<Rnnoise>} */
  static async create() {
    /** @type {WebAssembly.Memory | undefined} */
    let memory;
    const env = {
      emscripten_memcpy_big: (/** @type {number} */ to, /** @type {number} */ from, /** @type {number} */ bytes) => {
        if (memory) new Uint8Array(memory.buffer).copyWithin(to, from, from + bytes);
      },
      emscripten_resize_heap: (/** @type {number} */ bytes) => resizeHeap(memory, bytes),
      __assert_fail: () => {
        throw new Error('RNNoise: assertion failed in the wasm');
      },
    };
    const instance = await WebAssembly.instantiate(await compiledOnce(createRequire(import.meta.url).resolve(WASM)), { env });
    const wasm = /** @type {RnnoiseExports} */ (/** @type {unknown} */ (instance.exports));
    memory = wasm.memory;
    wasm.__wasm_call_ctors();
    if (wasm.rnnoise_get_frame_size() !== RNNOISE_FRAME) throw new Error('RNNoise: unexpected frame size');
    return new Rnnoise(wasm);
  }

  // A new state, with RNNoise's own model; its number for processFrame.
  newState() {
    const state = this.wasm.rnnoise_create(0);
    if (!state) throw new Error('RNNoise: could not allocate a state');
    this.states.push(state);
    return state;
  }

  /**
   * One frame through `state`; its output (for the frame given before this one).
   * @param {number} state
   * @param {Float32Array} frame RNNOISE_FRAME samples in int16 scale
   */
  processFrame(state, frame) {
    // The view is made each time: it goes stale if the wasm's memory grows.
    const heap = new Float32Array(this.wasm.memory.buffer, this.framePointer, RNNOISE_FRAME);
    heap.set(frame);
    this.wasm.rnnoise_process_frame(state, this.framePointer, this.framePointer);
    return Float32Array.from(heap);
  }

  destroy() {
    for (const state of this.states) this.wasm.rnnoise_destroy(state);
    this.wasm.free(this.framePointer);
  }
}

// Half a second of quiet noise through a throwaway state, for the reason gtcrn-stream.mjs's prepare()
// gives.
export async function prepare() {
  const rnnoise = await Rnnoise.create();
  try {
    const state = rnnoise.newState();
    const frame = quietNoise(RNNOISE_FRAME);
    for (let i = 0; i < WARM_UP_FRAMES; i++) rnnoise.processFrame(state, frame);
  } finally {
    rnnoise.destroy();
  }
}
