// @ts-check
// Makes a clean-audio output at a new strength from the stems rnnoise-filter.mjs kept (decision 0093):
//   node remix-stems.mjs --strength 0.5 [--measure <file>] [--low-band <file> --low-band-energy <json>]
// 4-channel s16le stems on stdin (denoised, input, hum, low band lost), s16le 48 kHz mono on stdout,
// one sample out for each sample in. --measure and --low-band write what rnnoise-filter.mjs writes
// there, so the job goes on from here as from a denoising run; the low band's energies do not depend
// on strength and are given as the denoising run measured them.
import { once } from 'node:events';
import { createWriteStream, writeFileSync } from 'node:fs';
import { LoudnessMeter } from './loudness-meter.mjs';
import { checkedStrength, option, usageError } from './script-args.mjs';
import { humWeightFor } from './stem-mix.mjs';

const STEMS = 4;
const SAMPLE_BYTES = STEMS * 2;

const usage = usageError('remix-stems.mjs', '--strength <0..1> [--measure <file>] [--low-band <file> --low-band-energy <json>]');
const argv = process.argv.slice(2);
const strength = checkedStrength(argv, usage);
const humWeight = humWeightFor(strength);
const measurePath = option(argv, '--measure');
const meter = measurePath === undefined ? null : new LoudnessMeter();
const lowBandPath = option(argv, '--low-band');
const energyJson = option(argv, '--low-band-energy');
if ((lowBandPath === undefined) !== (energyJson === undefined)) usage('--low-band and --low-band-energy go together');
const energy = energyJson === undefined ? null : lowBandEnergy(energyJson);
const lowBand = lowBandPath === undefined ? null : createWriteStream(lowBandPath);

/** @param {string} json */
function lowBandEnergy(json) {
  try {
    const { inputEnergy, removedEnergy } = JSON.parse(json);
    if (typeof inputEnergy === 'number' && typeof removedEnergy === 'number') return { inputEnergy, removedEnergy };
  } catch {
    // reported below
  }
  return usage('--low-band-energy takes {"inputEnergy": <number>, "removedEnergy": <number>}');
}

/** @param {number} value */
function toSample(value) {
  return Math.max(-32768, Math.min(32767, Math.round(value)));
}

/** @param {Buffer} bytes whole samples of the stems */
function remix(bytes) {
  // Copied: a Buffer from a stream may be unaligned or share a pool, Int16Array needs its own.
  const stems = new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
  const samples = stems.length / STEMS;
  const out = new Int16Array(samples);
  const low = new Int16Array(samples);
  for (let i = 0, at = 0; i < samples; i++, at += STEMS) {
    const [denoised, input, hum, lowLost] = [stems[at], stems[at + 1], stems[at + 2], stems[at + 3]];
    out[i] = toSample(strength * denoised + (1 - strength) * (input - humWeight * hum));
    low[i] = toSample(strength * lowLost);
  }
  return { out, low };
}

/** @param {Int16Array} samples */
function toBytes(samples) {
  return Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
}

process.stdout.on('error', (error) => {
  process.stderr.write(`remix-stems: stdout: ${error.message}\n`);
  process.exit(1);
});
lowBand?.on('error', (error) => {
  process.stderr.write(`remix-stems: --low-band: ${error.message}\n`);
  process.exit(1);
});

/** @type {Buffer} */
let pending = Buffer.alloc(0); // bytes of an incomplete sample carried to the next chunk
for await (const chunk of process.stdin) {
  const bytes = pending.length > 0 ? Buffer.concat([pending, chunk]) : /** @type {Buffer} */ (chunk);
  const whole = bytes.length - (bytes.length % SAMPLE_BYTES);
  pending = bytes.subarray(whole);
  if (whole === 0) continue;
  const { out, low } = remix(bytes.subarray(0, whole));
  meter?.add(out);
  const drained = [];
  if (!process.stdout.write(toBytes(out))) drained.push(once(process.stdout, 'drain'));
  if (lowBand && !lowBand.write(toBytes(low))) drained.push(once(lowBand, 'drain'));
  await Promise.all(drained);
}
if (meter && measurePath) meter.save(measurePath);
if (lowBand && lowBandPath && energy) {
  lowBand.end();
  await once(lowBand, 'finish');
  writeFileSync(`${lowBandPath}.json`, JSON.stringify(energy));
}
process.stdout.end();
