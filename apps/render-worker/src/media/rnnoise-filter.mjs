// @ts-check
// Denoises raw PCM with RNNoise: s16le 48 kHz mono on stdin, the same on stdout, same length.
//   node rnnoise-filter.mjs --strength 0.874
// Plain JS run as a child process: the wasm package is ESM-only and Jest cannot load it in-process.
// output = strength * denoised + (1 - strength) * dry, with the dry signal delayed by one frame
// because RNNoise's output lags its input by exactly one frame; mixing unaligned comb-filters
// (shared/notes/facts.md). The lag is then removed so output sample i matches input sample i.
import RNNoise from '@echogarden/rnnoise-wasm';
import { once } from 'node:events';

const FRAME = 480; // RNNoise frame: 10 ms at 48 kHz
const FRAME_BYTES = FRAME * 2;

/** @param {string[]} argv */
function parseStrength(argv) {
  const at = argv.indexOf('--strength');
  const strength = at === -1 ? NaN : Number(argv[at + 1]);
  if (!(strength >= 0 && strength <= 1)) {
    process.stderr.write('usage: rnnoise-filter.mjs --strength <0..1>\n');
    process.exit(2);
  }
  return strength;
}

const strength = parseStrength(process.argv.slice(2));
const rnnoise = await RNNoise();
if (rnnoise._rnnoise_get_frame_size() !== FRAME) throw new Error('unexpected RNNoise frame size');
const state = rnnoise._rnnoise_create(0);
const framePtr = rnnoise._malloc(FRAME * 4);
const dry = new Float32Array(FRAME); // previous input frame, the dry signal aligned with RNNoise's output
let started = false; // the first frame's output belongs to input that precedes the stream: dropped

/**
 * Feeds one frame (int16 values, zero-padded at the end) and writes the mixed output for the
 * previous frame into out at outOffset (in samples). Returns false for the very first frame.
 * @param {Int16Array | Float32Array} input
 * @param {Int16Array} out
 * @param {number} outOffset
 */
function processFrame(input, out, outOffset) {
  // HEAPF32 is read each time: the view is replaced if the wasm memory ever grows.
  const frame = rnnoise.HEAPF32.subarray(framePtr >> 2, (framePtr >> 2) + FRAME);
  frame.set(input);
  rnnoise._rnnoise_process_frame(state, framePtr, framePtr);
  const wrote = started;
  if (started) {
    for (let i = 0; i < FRAME; i++) {
      const mixed = strength * frame[i] + (1 - strength) * dry[i];
      out[outOffset + i] = Math.max(-32768, Math.min(32767, Math.round(mixed)));
    }
  }
  dry.set(input);
  started = true;
  return wrote;
}

/** @param {Buffer} bytes */
async function write(bytes) {
  if (bytes.length > 0 && !process.stdout.write(bytes)) await once(process.stdout, 'drain');
}

/** @param {Buffer} bytes whole frames of s16le */
function framesOf(bytes) {
  // Copy: a Buffer from a stream may be unaligned or share a pool, Int16Array needs its own.
  const samples = new Int16Array(bytes.length / 2);
  for (let i = 0; i < samples.length; i++) samples[i] = bytes.readInt16LE(i * 2);
  return samples;
}

/** @param {Int16Array} samples */
function toBytes(samples) {
  const bytes = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) bytes.writeInt16LE(samples[i], i * 2);
  return bytes;
}

process.stdout.on('error', (error) => {
  process.stderr.write(`rnnoise-filter: stdout: ${error.message}\n`);
  process.exit(1);
});

/** @type {Buffer} */
let pending = Buffer.alloc(0); // bytes of an incomplete frame carried to the next chunk
for await (const chunk of process.stdin) {
  const bytes = pending.length > 0 ? Buffer.concat([pending, chunk]) : /** @type {Buffer} */ (chunk);
  const whole = bytes.length - (bytes.length % FRAME_BYTES);
  pending = bytes.subarray(whole);
  const input = framesOf(bytes.subarray(0, whole));
  const out = new Int16Array(input.length);
  let written = 0;
  for (let offset = 0; offset < input.length; offset += FRAME) {
    if (processFrame(input.subarray(offset, offset + FRAME), out, written)) written += FRAME;
  }
  await write(toBytes(out.subarray(0, written)));
}

// Flush: the last partial frame (zero-padded), then one silent frame to push out the lagged output.
const tailSamples = Math.floor(pending.length / 2);
const tail = new Int16Array(FRAME);
tail.set(framesOf(pending.subarray(0, tailSamples * 2)));
const out = new Int16Array(2 * FRAME);
let written = 0;
if (tailSamples > 0 && processFrame(tail, out, written)) written += FRAME;
if (processFrame(new Int16Array(FRAME), out, written)) written += FRAME;
// The zero padding of the last frame produced output past the input's end: cut it.
const keep = written - (tailSamples > 0 ? FRAME - tailSamples : 0);
await write(toBytes(out.subarray(0, Math.max(0, keep))));
rnnoise._free(framePtr);
rnnoise._rnnoise_destroy(state);
process.stdout.end();
