import { join } from 'node:path';
import type { ProcessCommand } from './process-runner';

// rnnoise-filter.mjs sits beside this file, with the modules it imports (loudness-meter.mjs,
// gtcrn-stream.mjs, rnnoise-wasm.mjs, wasm-heap.mjs, wasm-warmup.mjs, spectral-gain.mjs, mains-hum.mjs,
// stem-mix.mjs, script-args.mjs); a build that bundles the worker must copy them all along.
export const RNNOISE_FILTER = join(__dirname, 'rnnoise-filter.mjs');
// The filter's wasm modules, which a waiting process prepares ahead of it (warm-node-processes.ts).
export const DENOISER_MODULES = [join(__dirname, 'gtcrn-stream.mjs'), join(__dirname, 'rnnoise-wasm.mjs')];

// Raw s16le 48 kHz mono in on stdin, the same length out on stdout. With a meter path, the loudness
// of every 10 ms it writes is saved there at the end (denoised-loudness.ts reads it); with a low-band
// path, what the output lost under 300 Hz is written there, with its energies (low-band.ts); with a
// stems path, the stems an export remixes (decision 0093).
export function denoiseCommand(nodePath: string, strength: number, meterPath?: string, lowBandPath?: string, stemsPath?: string): ProcessCommand {
  return {
    file: nodePath,
    args: [
      RNNOISE_FILTER,
      '--strength', String(strength),
      ...(meterPath ? ['--measure', meterPath] : []),
      ...(lowBandPath ? ['--low-band', lowBandPath] : []),
      ...(stemsPath ? ['--stems', stemsPath] : []),
    ],
  };
}

// remix-stems.mjs sits beside this file too (decision 0093).
export const REMIX_STEMS = join(__dirname, 'remix-stems.mjs');

// 4-channel stems in on stdin, the output at this strength out on stdout, measured and with its low
// band as a denoising run gives them.
export function remixCommand(nodePath: string, strength: number, meterPath: string, lowBandPath: string, lowBandEnergy: { inputEnergy: number; removedEnergy: number }): ProcessCommand {
  return {
    file: nodePath,
    args: [REMIX_STEMS, '--strength', String(strength), '--measure', meterPath, '--low-band', lowBandPath, '--low-band-energy', JSON.stringify(lowBandEnergy)],
  };
}
