import { join } from 'node:path';
import type { ProcessCommand } from './process-runner';

// rnnoise-filter.mjs sits beside this file, with the modules it imports (loudness-meter.mjs,
// spectral-gain.mjs, mains-hum.mjs); a build that bundles the worker must copy them all along.
export const RNNOISE_FILTER = join(__dirname, 'rnnoise-filter.mjs');

// Raw s16le 48 kHz mono in on stdin, the same length out on stdout. With a meter path, the loudness
// of every 10 ms it writes is saved there at the end (denoised-loudness.ts reads it); with a low-band
// path, what the output lost under 300 Hz is written there, with its energies (low-band.ts).
export function denoiseCommand(nodePath: string, strength: number, meterPath?: string, lowBandPath?: string): ProcessCommand {
  return {
    file: nodePath,
    args: [RNNOISE_FILTER, '--strength', String(strength), ...(meterPath ? ['--measure', meterPath] : []), ...(lowBandPath ? ['--low-band', lowBandPath] : [])],
  };
}
