import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

// mains-hum.mjs is an ES module the denoiser's child process loads; Jest cannot load it in-process,
// so it runs in a node of its own on synthetic audio: seeded noise, with or without a 50 Hz buzz.
const MODULE = join(__dirname, 'mains-hum.mjs');
const SCRIPT = `
const { detectHum, HumLines } = await import(process.argv[1]);
const rate = 48000;
let seed = 1;
const noise = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648 - 0.5) * 2000;
const buzz = (i) => [1, 0.35, 0.7, 0.2, 0.45].reduce((sum, a, k) => sum + a * 6000 * Math.sin((2 * Math.PI * 50 * (k + 1) * i) / rate), 0);
const plain = Float32Array.from({ length: 2 * rate }, noise);
const hummed = Float32Array.from(plain, (x, i) => x + buzz(i));
const lines = detectHum(hummed, rate);
const hum = new HumLines(lines, rate);
hum.prime(hummed);
const out = Float32Array.from(hummed);
hum.process(out);
let buzzed = 0, left = 0;
for (let i = 0; i < out.length; i++) { buzzed += buzz(i) ** 2; left += (out[i] - plain[i]) ** 2; }
console.log(JSON.stringify({ lines, plain: detectHum(plain, rate), removedDb: 10 * Math.log10(buzzed / left) }));
`;

describe('mains-hum.mjs', () => {
  it('finds the lines of a mains buzz, none in plain noise, and takes the buzz out', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', SCRIPT, MODULE]);
    const result = JSON.parse(stdout) as { lines: number[]; plain: number[]; removedDb: number };
    expect(result.lines).toEqual([50, 100, 150, 200, 250]);
    expect(result.plain).toEqual([]);
    // What is left of the buzz, with what the fit took of the noise beside it.
    expect(result.removedDb).toBeGreaterThan(40);
  });
});
