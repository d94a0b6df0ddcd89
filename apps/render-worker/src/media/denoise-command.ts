import { join } from 'node:path';
import type { ProcessCommand } from './process-runner';

// rnnoise-filter.mjs sits beside this file; a build that bundles the worker must copy it along.
const RNNOISE_FILTER = join(__dirname, 'rnnoise-filter.mjs');

// Raw s16le 48 kHz mono in on stdin, the same length out on stdout.
export function denoiseCommand(nodePath: string, strength: number): ProcessCommand {
  return { file: nodePath, args: [RNNOISE_FILTER, '--strength', String(strength)] };
}
