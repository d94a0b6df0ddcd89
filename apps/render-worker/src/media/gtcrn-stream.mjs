// @ts-check
// GTCRN (a small speech-enhancement network, MIT) as a stream of 480-sample frames at 48 kHz, aligned
// sample for sample with what went in: output frame j is the enhanced input frame j (decision 0105).
// The network ships compiled to wasm inside @sapphi-red/web-noise-suppressor (MIT), whose JavaScript
// is written for a browser's AudioWorklet; the wasm itself is instantiated here with the two functions
// it imports. Its exports are minified names, so the package is pinned to the exact version they were
// read from, and the version is checked before they are used.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { resizeHeap } from './wasm-heap.mjs';
import { compiledOnce, quietNoise, WARM_UP_FRAMES } from './wasm-warmup.mjs';

const PACKAGE = '@sapphi-red/web-noise-suppressor';
const PINNED_VERSION = '0.4.1';
const FRAME = 480;
// The wasm's 48 kHz entry takes blocks of this many samples, floats in [-1, 1].
const BLOCK = 768;
// Its output lags its input by this many samples (the resampling to its 16 kHz model and back, and its
// transform's window): measured by gtcrn-stream.int-spec.ts.
export const GTCRN_LAG = 890;
// Samples in, in our int16 scale, to the network's floats.
const SCALE = 32768;

/**
 * @typedef {{ memory: WebAssembly.Memory, init: () => void, create: () => number, destroy: (state: number) => void,
 *   process48k: (state: number, input: number, output: number) => void, malloc: (bytes: number) => number, free: (pointer: number) => void }} GtcrnExports
 */

/** @returns {Promise<GtcrnExports>} */
async function instantiate() {
  const wasmPath = createRequire(import.meta.url).resolve(`${PACKAGE}/gtcrn.wasm`);
  // The package exports no package.json: it sits one folder above dist/gtcrn.wasm.
  const { version } = JSON.parse(readFileSync(join(dirname(wasmPath), '..', 'package.json'), 'utf8'));
  if (version !== PINNED_VERSION) throw new Error(`${PACKAGE} ${version}: gtcrn-stream.mjs reads the wasm exports of ${PINNED_VERSION} only`);
  /** @type {WebAssembly.Memory | undefined} */
  let memory;
  const imports = {
    a: {
      // An assertion failed inside the wasm.
      a: () => {
        throw new Error('GTCRN: assertion failed in the wasm');
      },
      // The heap must hold `bytes`.
      b: (/** @type {number} */ bytes) => resizeHeap(memory, bytes),
    },
  };
  const instance = await WebAssembly.instantiate(await compiledOnce(wasmPath), imports);
  const exported = /** @type {Record<string, any>} */ (instance.exports);
  memory = exported.c;
  return { memory: exported.c, init: exported.d, create: exported.e, free: exported.f, destroy: exported.g, process48k: exported.j, malloc: exported.k };
}

export class GtcrnStream {
  /** @param {GtcrnExports} wasm */
  constructor(wasm) {
    this.wasm = wasm;
    this.state = wasm.create();
    this.inputPointer = wasm.malloc(BLOCK * 4);
    this.outputPointer = wasm.malloc(BLOCK * 4);
    if (!this.state || !this.inputPointer || !this.outputPointer) throw new Error('GTCRN: could not allocate its state');
    this.block = new Float32Array(BLOCK);
    this.blockFill = 0;
    // Enhanced samples not yet handed out, and how many of the first ones still belong to the lag.
    this.ready = new Float32Array(BLOCK + FRAME);
    this.readyFill = 0;
    this.lagLeft = GTCRN_LAG;
  }

  /** @returns {Promise<GtcrnStream>} */
  static async create() {
    const wasm = await instantiate();
    wasm.init();
    return new GtcrnStream(wasm);
  }

  /**
   * Takes one input frame (int16 scale) and returns the enhanced frames now complete, oldest first
   * (zero, one or two: the network works in blocks of 768 and lags 890 samples).
   * @param {ArrayLike<number>} frame FRAME samples
   * @returns {Float32Array[]}
   */
  push(frame) {
    /** @type {Float32Array[]} */
    const frames = [];
    for (let i = 0; i < FRAME; i++) {
      this.block[this.blockFill++] = frame[i] / SCALE;
      if (this.blockFill < BLOCK) continue;
      this.runBlock();
      while (this.readyFill >= FRAME) {
        frames.push(Float32Array.from(this.ready.subarray(0, FRAME), (sample) => sample * SCALE));
        this.ready.copyWithin(0, FRAME, this.readyFill);
        this.readyFill -= FRAME;
      }
    }
    return frames;
  }

  runBlock() {
    const { wasm } = this;
    // The views are made each time: they go stale if the wasm's memory grows.
    new Float32Array(wasm.memory.buffer, this.inputPointer, BLOCK).set(this.block);
    wasm.process48k(this.state, this.inputPointer, this.outputPointer);
    const output = new Float32Array(wasm.memory.buffer, this.outputPointer, BLOCK);
    const skipped = Math.min(this.lagLeft, BLOCK);
    this.lagLeft -= skipped;
    this.ready.set(output.subarray(skipped), this.readyFill);
    this.readyFill += BLOCK - skipped;
    this.blockFill = 0;
  }

  destroy() {
    this.wasm.free(this.inputPointer);
    this.wasm.free(this.outputPointer);
    this.wasm.destroy(this.state);
  }
}

// Runs half a second of quiet noise through a throwaway stream. A process that does this while it
// waits for a job (warm-node-bootstrap.mjs) spares the job the optimizing compiler's work: about 0.3 s
// of CPU, which a process also waits for before it exits, so a 1 s job's denoiser took 0.5 s, not 0.2.
export async function prepare() {
  const stream = await GtcrnStream.create();
  try {
    const frame = quietNoise(FRAME);
    for (let i = 0; i < WARM_UP_FRAMES; i++) stream.push(frame);
  } finally {
    stream.destroy();
  }
}
