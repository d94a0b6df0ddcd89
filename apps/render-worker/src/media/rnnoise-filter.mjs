// @ts-check
// Denoises raw PCM with GTCRN and RNNoise: s16le 48 kHz mono on stdin, the same on stdout, same length.
//   node rnnoise-filter.mjs --strength 0.874 [--measure <file>] [--low-band <file>] [--stems <file>]
// With --measure, the output's loudness is measured as it is written (loudness-meter.mjs) and saved to
// the file at the end. With --low-band, what the output lost below 300 Hz (spectral-gain.mjs) is
// written to the file as s16le, sample for sample beside stdout, and at the end the low band's
// energies go to <file>.json as { inputEnergy, removedEnergy }: the job gives it back where the
// whole file shows it held no noise (low-band.ts).
// Plain JS run as a child process: the wasm package is ESM-only and Jest cannot load it in-process.
// A DC offset is not noise: it is taken out first and given back in the output, so a recording's offset
// comes out as it went in (decision 0078). Mains hum, once found, is subtracted next
// (mains-hum.mjs). GTCRN then enhances the speech (gtcrn-stream.mjs), and RNNoise runs on what it
// made and on the input itself; RNNoise's outputs only say how much to lower each part of the
// spectrum of what they heard, which is scaled by that (spectral-gain.mjs, decision 0105), keeping its
// waveform where RNNoise's own output reshapes speech. Then output = strength * gained + (1 -
// strength) * dry, the dry signal held back to meet it: GTCRN lags in blocks, RNNoise a frame and the
// spectral step one more, so each frame read waits in a queue until its output is done; mixing
// unaligned comb-filters (denoise-quality.int-spec.ts measures it). Output sample i matches input
// sample i. Hum is a fault, not the room's ambience that the dry part keeps:
// the dry part loses it too, all of it from strength 0.5 up (stem-mix.mjs), in proportion below, so
// strength 0 still gives the input back (decision 0088).
// With --stems, what every output sample is made of is written to the file as 4-channel s16le, sample
// for sample beside stdout: the denoised signal, the input, the hum found in it and what the low band
// lost, all before strength is applied; remix-stems.mjs makes the output at another strength from
// them without running the networks again (decision 0093).
import { once } from 'node:events';
import { createWriteStream, writeFileSync } from 'node:fs';
import { LoudnessMeter } from './loudness-meter.mjs';
import { checkedStrength, option, usageError } from './script-args.mjs';
import { MainsHum } from './mains-hum.mjs';
import { Rnnoise, RNNOISE_FRAME } from './rnnoise-wasm.mjs';
import { GtcrnStream } from './gtcrn-stream.mjs';
import { SpectralGain } from './spectral-gain.mjs';
import { humWeightFor } from './stem-mix.mjs';

const FRAME = RNNOISE_FRAME; // 10 ms at 48 kHz
const FRAME_BYTES = FRAME * 2;
const SAMPLE_RATE = 48_000;
// Hum is looked for, and its frequency measured, on this much audio: the start is held back until
// then (or the end, if shorter); while none is found, each stretch as long after it is looked at too.
const HUM_DETECTION_SAMPLES = 4 * SAMPLE_RATE;

const usage = usageError('rnnoise-filter.mjs', '--strength <0..1> [--measure <file>] [--low-band <file>] [--stems <file>]');
const argv = process.argv.slice(2);
const strength = checkedStrength(argv, usage);
const measurePath = option(argv, '--measure');
const humWeight = humWeightFor(strength);
const meter = measurePath === undefined ? null : new LoudnessMeter();
const lowBandPath = option(argv, '--low-band');
const lowBand = lowBandPath === undefined ? null : createWriteStream(lowBandPath);
const stemsPath = option(argv, '--stems');
const stems = stemsPath === undefined ? null : createWriteStream(stemsPath);
const rnnoise = await Rnnoise.create();
// Two RNNoise states: one hears the input, one what GTCRN made of it (spectral-gain.mjs uses both).
const inputState = rnnoise.newState();
const state = rnnoise.newState();
// RNNoise's previous input (a frame GTCRN enhanced), aligned with its next output.
let enhancedBefore = new Float32Array(FRAME);
const spectralGain = new SpectralGain();
const gtcrn = await GtcrnStream.create();
const mainsHum = new MainsHum(SAMPLE_RATE, HUM_DETECTION_SAMPLES);
let holding = true; // the start is held back until hum has been looked for on it
// The input's DC offset, followed by a one-pole low-pass of this time constant: far below any noise
// worth removing (it passes under 0.1 Hz), and started at the mean of the held audio.
const OFFSET_SECONDS = 2;
const OFFSET_STEP = 1 - Math.exp(-1 / (OFFSET_SECONDS * SAMPLE_RATE));
let offset = 0;

/**
 * @typedef {{ input: Float32Array, seen: Float32Array, seenDenoised: Float32Array, dry: Float32Array, offsets: Float32Array, hum: Float32Array }} ReadFrame
 * input: as read; seen: less its offset and hum (what the networks hear); seenDenoised: RNNoise's
 * output for seen (filled in when the next frame is read: it lags a frame); dry: the input less the
 * hum taken out of the mix's dry part; offsets: the DC offset under each sample; hum: the hum found.
 */
/** @type {ReadFrame[]} */
const waiting = []; // frames read whose output is not written yet, oldest first
let enhancedFrames = 0; // frames GTCRN has given back so far (frame i enhanced is read frame i)
let writtenFrames = 0;

/**
 * Feeds one frame (int16 values, zero-padded at the end) and writes the mixed output of every read
 * frame now complete, oldest first, into out from outOffset (in samples), what that output lost in
 * the low band into low, and its stems into parts (4 per sample). Returns how many frames it wrote:
 * GTCRN works in blocks and lags, RNNoise lags a frame and the spectral step looks one ahead, so a
 * frame comes out some frames after it went in, sometimes two at once.
 * @param {Int16Array | Float32Array} input
 * @param {{ out: Int16Array, low: Int16Array, parts: Int16Array | null }} output
 * @param {number} outOffset
 */
function processFrame(input, output, outOffset) {
  const offsets = new Float32Array(FRAME);
  const seen = Float32Array.from(input);
  for (let i = 0; i < FRAME; i++) {
    offset += OFFSET_STEP * (seen[i] - offset);
    offsets[i] = offset;
    seen[i] -= offset;
  }
  mainsHum.process(seen);
  const hum = new Float32Array(FRAME);
  // The input less the hum subtracted from it (its offset and what is left after the hum removed).
  const dry = new Float32Array(FRAME);
  for (let i = 0; i < FRAME; i++) {
    hum[i] = input[i] - offsets[i] - seen[i];
    dry[i] = input[i] - humWeight * hum[i];
  }
  // RNNoise's output for the input lags it a frame: it belongs to the frame read before (none for the
  // first), which is still waiting, as its output needs two more enhanced frames.
  const seenDenoised = rnnoise.processFrame(inputState, seen);
  waiting.at(-1)?.seenDenoised.set(seenDenoised);
  waiting.push({ input: Float32Array.from(input), seen, seenDenoised: new Float32Array(FRAME), dry, offsets, hum });
  let written = 0;
  for (const enhanced of gtcrn.push(seen)) {
    if (denoiseEnhanced(enhanced, output, outOffset + written * FRAME)) written++;
  }
  return written;
}

/**
 * Runs RNNoise on the next enhanced frame and the spectral step on the one before it; writes the
 * frame that step completes, if any.
 * @param {Float32Array} enhanced
 * @param {{ out: Int16Array, low: Int16Array, parts: Int16Array | null }} output
 * @param {number} outOffset
 */
function denoiseEnhanced(enhanced, { out, low, parts }, outOffset) {
  const denoised = rnnoise.processFrame(state, enhanced);
  const index = enhancedFrames++;
  // RNNoise's first output belongs to input before the stream.
  const before = index > 0 ? waiting[index - 1 - writtenFrames] : null;
  const gained = before ? spectralGain.push(before.seen, before.seenDenoised, enhancedBefore, denoised) : null;
  enhancedBefore = enhanced;
  if (!gained) return false;
  const done = /** @type {ReadFrame} */ (waiting.shift());
  writtenFrames++;
  for (let i = 0; i < FRAME; i++) {
    const mixed = strength * (gained[i] + done.offsets[i]) + (1 - strength) * done.dry[i];
    out[outOffset + i] = toSample(mixed);
    low[outOffset + i] = toSample(strength * spectralGain.removedLow[i]);
  }
  if (parts) writeStems(parts, outOffset, gained, done);
  return true;
}

/**
 * The stems of the frame just mixed: remix-stems.mjs mixes them as denoiseEnhanced does.
 * @param {Int16Array} parts
 * @param {number} outOffset
 * @param {Float32Array | Float64Array} gained
 * @param {ReadFrame} done
 */
function writeStems(parts, outOffset, gained, done) {
  for (let i = 0, at = 4 * outOffset; i < FRAME; i++, at += 4) {
    parts[at] = toSample(gained[i] + done.offsets[i]);
    parts[at + 1] = toSample(done.input[i]);
    parts[at + 2] = toSample(done.hum[i]);
    parts[at + 3] = toSample(spectralGain.removedLow[i]);
  }
}

/** @param {number} value */
function toSample(value) {
  return Math.max(-32768, Math.min(32767, Math.round(value)));
}

/** @param {number} samples */
function outputOf(samples) {
  return { out: new Int16Array(samples), low: new Int16Array(samples), parts: stems && new Int16Array(4 * samples) };
}

// Room for what a call writes beyond the frames it reads: frames GTCRN held back come out with them.
const HELD_BACK_FRAMES = 2;
// The flush's output: the last frame, the frames still in the pipeline and the silence pushing them out.
const FLUSH_FRAMES = 16;

/**
 * Denoises whole frames and writes what comes out.
 * @param {Int16Array} input
 */
async function denoise(input) {
  const output = outputOf(input.length + HELD_BACK_FRAMES * FRAME);
  let written = 0;
  for (let offset = 0; offset < input.length; offset += FRAME) {
    written += FRAME * processFrame(input.subarray(offset, offset + FRAME), output, written);
  }
  await write(output, written);
}

/**
 * @param {{ out: Int16Array, low: Int16Array, parts: Int16Array | null }} output
 * @param {number} samples how many of them to write
 */
async function write({ out, low, parts }, samples) {
  if (samples <= 0) return;
  meter?.add(out.subarray(0, samples));
  const drained = [];
  if (!process.stdout.write(toBytes(out.subarray(0, samples)))) drained.push(once(process.stdout, 'drain'));
  if (lowBand && !lowBand.write(toBytes(low.subarray(0, samples)))) drained.push(once(lowBand, 'drain'));
  if (stems && parts && !stems.write(toBytes(parts.subarray(0, 4 * samples)))) drained.push(once(stems, 'drain'));
  await Promise.all(drained);
}

/** @param {Buffer} bytes whole frames of s16le */
function framesOf(bytes) {
  // Copied: a Buffer from a stream may be unaligned or share a pool, Int16Array needs its own.
  return new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
}

/** @param {Int16Array} samples never reused once written */
function toBytes(samples) {
  return Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
}

process.stdout.on('error', (error) => {
  process.stderr.write(`rnnoise-filter: stdout: ${error.message}\n`);
  process.exit(1);
});
lowBand?.on('error', (error) => {
  process.stderr.write(`rnnoise-filter: --low-band: ${error.message}\n`);
  process.exit(1);
});
stems?.on('error', (error) => {
  process.stderr.write(`rnnoise-filter: --stems: ${error.message}\n`);
  process.exit(1);
});

/** @type {Int16Array[]} */
let held = []; // whole frames read before the hum was looked for
let heldSamples = 0;

// Looks for hum on what was held, then denoises it.
async function releaseHeld() {
  const start = new Int16Array(heldSamples);
  let at = 0;
  for (const frames of held) {
    start.set(frames, at);
    at += frames.length;
  }
  offset = start.length === 0 ? 0 : start.reduce((sum, sample) => sum + sample, 0) / start.length;
  mainsHum.start(Float32Array.from(start, (sample) => sample - offset));
  held = [];
  holding = false;
  await denoise(start);
}

/** @type {Buffer} */
let pending = Buffer.alloc(0); // bytes of an incomplete frame carried to the next chunk
for await (const chunk of process.stdin) {
  const bytes = pending.length > 0 ? Buffer.concat([pending, chunk]) : /** @type {Buffer} */ (chunk);
  const whole = bytes.length - (bytes.length % FRAME_BYTES);
  pending = bytes.subarray(whole);
  const input = framesOf(bytes.subarray(0, whole));
  if (!holding) {
    await denoise(input);
    continue;
  }
  // Exactly the first HUM_DETECTION_SAMPLES are held, however the pipe splits its reads: what is
  // looked at, and so every output sample, depends on the audio alone.
  const wanted = Math.min(input.length, HUM_DETECTION_SAMPLES - heldSamples);
  held.push(input.subarray(0, wanted));
  heldSamples += wanted;
  if (heldSamples < HUM_DETECTION_SAMPLES) continue;
  await releaseHeld();
  await denoise(input.subarray(wanted));
}
if (holding) await releaseHeld();

// Flush: the last partial frame (zero-padded), then silent frames until every frame read is written.
const tailSamples = Math.floor(pending.length / 2);
const tail = new Int16Array(FRAME);
tail.set(framesOf(pending.subarray(0, tailSamples * 2)));
const flushed = outputOf(FLUSH_FRAMES * FRAME);
let written = 0;
if (tailSamples > 0) written += FRAME * processFrame(tail, flushed, written);
const readFrames = writtenFrames + waiting.length;
while (writtenFrames < readFrames) written += FRAME * processFrame(new Int16Array(FRAME), flushed, written);
// The silent frames and the last frame's zero padding produced output past the input's end: cut it.
const pastEnd = (writtenFrames - readFrames) * FRAME + (tailSamples > 0 ? FRAME - tailSamples : 0);
await write(flushed, written - pastEnd);
gtcrn.destroy();
rnnoise.destroy();
if (meter && measurePath) meter.save(measurePath);
if (lowBand && lowBandPath) {
  lowBand.end();
  await once(lowBand, 'finish');
  const { inputLowEnergy: inputEnergy, removedLowEnergy: removedEnergy } = spectralGain;
  writeFileSync(`${lowBandPath}.json`, JSON.stringify({ inputEnergy, removedEnergy }));
}
if (stems) {
  stems.end();
  await once(stems, 'finish');
}
process.stdout.end();
