import { existsSync } from 'node:fs';
import { denoiseCommand } from './denoise-command';

describe('denoiseCommand', () => {
  it('runs rnnoise-filter.mjs beside it with node and the strength', () => {
    const command = denoiseCommand('/usr/bin/node', 0.874);
    expect(command.file).toBe('/usr/bin/node');
    expect(command.args.slice(1)).toEqual(['--strength', '0.874']);
    expect(command.args[0]).toMatch(/rnnoise-filter\.mjs$/);
    expect(existsSync(command.args[0])).toBe(true);
  });

  it('asks for the loudness of what it writes, saved to a file', () => {
    expect(denoiseCommand('/usr/bin/node', 1, '/w/denoised.loudness').args.slice(3)).toEqual(['--measure', '/w/denoised.loudness']);
  });

  it('asks for what the output lost in the low band, written to a file', () => {
    expect(denoiseCommand('/usr/bin/node', 1, '/w/m', '/w/low.s16le').args.slice(3)).toEqual(['--measure', '/w/m', '--low-band', '/w/low.s16le']);
  });
});
