import { readFile } from 'node:fs/promises';
import { FRAME_BYTES } from './denoise-parts';
import type { LoudnessMeasurement } from './loudness';

// The denoised audio's loudness from what its denoisers measured while writing it (loudness-meter.mjs:
// each 10 ms frame's K-weighted energy and true peak), over the frames each part keeps, in the parts'
// order, gated as BS.1770-4 gates it: 400 ms blocks every 100 ms, an absolute gate at -70 LUFS, then
// a relative one 10 LU below the loudness of the blocks that passed the first.

// loudness-meter.mjs measures in RNNoise's frames, on which parts start.
const FRAME_SAMPLES = FRAME_BYTES / 2;
const BLOCK_FRAMES = 40;
const STEP_FRAMES = 10;
const ABSOLUTE_GATE_LUFS = -70;
const RELATIVE_GATE_LU = -10;

// One denoiser's saved measurement, and the frames of its output that went into the file.
export interface MeteredPart {
  path: string;
  firstFrame?: number;
  frames?: number;
}

export async function readDenoisedLoudness(parts: readonly MeteredPart[]): Promise<LoudnessMeasurement> {
  const kept = await Promise.all(parts.map(async (part) => keptFrames(part, await readFile(part.path))));
  const energies = new Float64Array(kept.reduce((sum, frames) => sum + frames.length / 2, 0));
  let truePeak = 0;
  let at = 0;
  for (const frames of kept) {
    for (let frame = 0; frame < frames.length; frame += 2) {
      energies[at++] = frames[frame];
      truePeak = Math.max(truePeak, frames[frame + 1]);
    }
  }
  return { integratedLufs: gatedLoudness(energies), truePeakDb: 20 * Math.log10(truePeak) };
}

// Integrated loudness of consecutive 10 ms frame energies (sums of squared K-weighted samples).
// -Infinity when no block passes the absolute gate (silence, or under 400 ms).
export function gatedLoudness(frameEnergies: Float64Array): number {
  const blocks: number[] = [];
  for (let start = 0; start + BLOCK_FRAMES <= frameEnergies.length; start += STEP_FRAMES) {
    let sum = 0;
    for (let frame = start; frame < start + BLOCK_FRAMES; frame++) sum += frameEnergies[frame];
    blocks.push(sum / (BLOCK_FRAMES * FRAME_SAMPLES));
  }
  const audible = blocks.filter((power) => loudness(power) > ABSOLUTE_GATE_LUFS);
  if (audible.length === 0) return -Infinity;
  const relativeGate = loudness(mean(audible)) + RELATIVE_GATE_LU;
  return loudness(mean(audible.filter((power) => loudness(power) > relativeGate)));
}

// The part's kept frames as energy, peak pairs.
function keptFrames(part: MeteredPart, bytes: Buffer): Float64Array {
  const pairs = new Float64Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
  const first = part.firstFrame ?? 0;
  return pairs.subarray(2 * first, part.frames === undefined ? undefined : 2 * (first + part.frames));
}

function loudness(power: number): number {
  return -0.691 + 10 * Math.log10(power);
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}
