import { createReadStream, createWriteStream } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';

// What the denoiser took from the low band (under 300 Hz, rnnoise-filter.mjs --low-band), and whether
// the job gives it back (decision 0087). RNNoise's lowest band spans 0-200 Hz, so on clean speech its
// change is mostly the voice's fundamental; rumble, brown and pink noise live there too. One decision
// for the whole file, from how much of the input's low band was removed: speech alone loses 16-18 dB
// less than it holds there, rumble or pink noise at 0-10 dB SNR only 1-11 dB less.

export interface LowBandEnergy {
  inputEnergy: number;
  removedEnergy: number;
}

// At or under this share removed (dB), all of it is given back; at or over NONE_BACK_DB nothing is,
// with a straight line between. Measured on bench/denoise-quality's inputs since GTCRN runs first
// (decision 0105), which changes a voice's low band more than RNNoise alone did: clean speech -15.7
// to -18.1 dB, hum (removed before this band is measured) -15.5 to -17.8, keystrokes -15.1 to -17.8,
// white noise -13.5 to -17.8 at 5-10 dB SNR (-11.9 at 0 dB), where giving it back gained 0.5-2.7 dB;
// babble at 10 dB SNR -10.0 to -11.9, pink noise -10.7 to -10.9, rumble -7.9 to -9.0, where it lost up
// to 4 dB (every noise at 0 and 5 dB SNR lower still).
const ALL_BACK_DB = -14;
const NONE_BACK_DB = -12;

// The weight, 0 to 1, the removed low band is added back with.
export function lowBandWeight(energies: readonly LowBandEnergy[]): number {
  const input = energies.reduce((sum, part) => sum + part.inputEnergy, 0);
  const removed = energies.reduce((sum, part) => sum + part.removedEnergy, 0);
  if (!(input > 0)) return 0;
  const removedDb = removed > 0 ? 10 * Math.log10(removed / input) : -Infinity;
  return Math.round(100 * Math.min(1, Math.max(0, (NONE_BACK_DB - removedDb) / (NONE_BACK_DB - ALL_BACK_DB)))) / 100;
}

// The file the denoiser wrote beside its low-band samples.
export function lowBandEnergyPath(lowBandPath: string): string {
  return `${lowBandPath}.json`;
}

export async function readLowBandEnergy(lowBandPath: string): Promise<LowBandEnergy> {
  const parsed: unknown = JSON.parse(await readFile(lowBandEnergyPath(lowBandPath), 'utf8'));
  const { inputEnergy, removedEnergy } = (parsed ?? {}) as Partial<LowBandEnergy>;
  if (typeof inputEnergy !== 'number' || typeof removedEnergy !== 'number') throw new Error(`${lowBandEnergyPath(lowBandPath)} holds no low-band energies`);
  return { inputEnergy, removedEnergy };
}

export async function removeLowBand(lowBandPath: string): Promise<void> {
  await Promise.all([rm(lowBandPath, { force: true }), rm(lowBandEnergyPath(lowBandPath), { force: true })]);
}

// One byte range of a part's file (its low band, its stems), and where it goes in the whole file's.
export interface FilePiece {
  path: string;
  start: number;
  bytes: number;
  at: number;
}

// Puts the parts' kept ranges together into one file, as the parts' outputs are put together.
export async function joinPieces(pieces: readonly FilePiece[], outputPath: string): Promise<void> {
  await writeFile(outputPath, Buffer.alloc(0));
  for (const piece of pieces) {
    if (piece.bytes <= 0) continue;
    await pipeline(
      createReadStream(piece.path, { start: piece.start, end: piece.start + piece.bytes - 1 }),
      createWriteStream(outputPath, { flags: 'r+', start: piece.at }),
    );
  }
}
