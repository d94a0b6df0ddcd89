// @ts-check
// The command line of the denoiser's scripts (rnnoise-filter.mjs, remix-stems.mjs): `--name value`
// options, a usage error that exits 2, and the checks both make before reading a sample.
import { endianness } from 'node:os';

/**
 * @param {string} script its file name
 * @param {string} args its usage after the name
 * @returns {(message: string) => never}
 */
export function usageError(script, args) {
  return (message) => {
    process.stderr.write(`${script}: ${message}\nusage: ${script} ${args}\n`);
    process.exit(2);
  };
}

/**
 * @param {string[]} argv
 * @param {string} name
 */
export function option(argv, name) {
  const at = argv.indexOf(name);
  return at === -1 ? undefined : argv[at + 1];
}

/**
 * Samples are read and written as the machine's own Int16Array: s16le only where that is
 * little-endian. Returns --strength, 0 to 1.
 * @param {string[]} argv
 * @param {(message: string) => never} usage
 */
export function checkedStrength(argv, usage) {
  if (endianness() !== 'LE') usage('needs a little-endian machine');
  const strength = Number(option(argv, '--strength'));
  if (!(strength >= 0 && strength <= 1)) usage('--strength takes a number from 0 to 1');
  return strength;
}
