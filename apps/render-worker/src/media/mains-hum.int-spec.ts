import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

// mains-hum.mjs is an ES module the denoiser's child process loads; Jest cannot load it in-process,
// so it runs in a node of its own on synthetic audio: seeded noise, with or without a buzz at 50 Hz or
// at 60 Hz a little off.
const MODULE = join(__dirname, 'mains-hum.mjs');
const SCRIPT = `
const { detectMains, HumLines } = await import(process.argv[1]);
const rate = 48000;
let seed = 1;
const noise = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648 - 0.5) * 2000;
const buzz = (mains) => (i) => [1, 0.35, 0.7, 0.2, 0.45].reduce((sum, a, k) => sum + a * 6000 * Math.sin((2 * Math.PI * mains * (k + 1) * i) / rate), 0);
const plain = Float32Array.from({ length: 4 * rate }, noise);
const treble = (i) => [1, 2, 3, 4, 5].reduce((sum, k) => sum + 8000 * Math.sin((2 * Math.PI * (6000 - 50 * k - 3) * i) / rate), 0);
// What is left of the buzz once cleaned, with what the fit took of the noise beside it, in dB under the buzz.
function removed(mains) {
  const hummed = Float32Array.from(plain, (x, i) => x + buzz(mains)(i));
  const found = detectMains(hummed, rate);
  const hum = new HumLines(found, rate);
  hum.prime(hummed);
  const out = Float32Array.from(hummed);
  for (let at = 0; at < out.length; at += 480) hum.process(out.subarray(at, at + 480));
  let buzzed = 0, left = 0;
  for (let i = 0; i < out.length; i++) { buzzed += buzz(mains)(i) ** 2; left += (out[i] - plain[i]) ** 2; }
  return { found, db: 10 * Math.log10(buzzed / left) };
}
console.log(JSON.stringify({
  plain: detectMains(plain, rate),
  short: detectMains(plain.subarray(0, 100), rate),
  // Loud steady tones that, kept one sample in eight unfiltered, would fold beside the buzz's lines.
  besideTreble: detectMains(Float32Array.from(plain, (x, i) => x + buzz(50)(i) + treble(i)), rate),
  trebleAlone: detectMains(Float32Array.from(plain, (x, i) => x + treble(i)), rate),
  nominal: removed(50),
  drifted: removed(60.04),
}));
`;

// A stream of seeded noise whose buzz starts after 6 s: what is left of the buzz over the last 4 of
// 16 s, in dB under it.
const LATE_SCRIPT = `
const { MainsHum } = await import(process.argv[1]);
const rate = 48000;
let seed = 2;
const noise = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648 - 0.5) * 2000;
const buzz = (i) => (i < 6 * rate ? 0 : [1, 0.35, 0.7].reduce((sum, a, k) => sum + a * 6000 * Math.sin((2 * Math.PI * 50 * (k + 1) * i) / rate), 0));
const plain = Float32Array.from({ length: 16 * rate }, noise);
const hummed = Float32Array.from(plain, (x, i) => x + buzz(i));
const hum = new MainsHum(rate, 4 * rate);
hum.start(hummed.slice(0, 4 * rate));
const out = Float32Array.from(hummed);
for (let at = 0; at < out.length; at += 480) hum.process(out.subarray(at, at + 480));
let buzzed = 0, left = 0;
for (let i = 12 * rate; i < out.length; i++) { buzzed += buzz(i) ** 2; left += (out[i] - plain[i]) ** 2; }
console.log(JSON.stringify({ db: 10 * Math.log10(buzzed / left) }));
`;

describe('mains-hum.mjs', () => {
  it('finds mains and its frequency, none in plain noise or in loud treble, and takes the buzz out', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', SCRIPT, MODULE]);
    const result = JSON.parse(stdout) as Record<'nominal' | 'drifted', { found: number; db: number }> & { plain: null; short: null; besideTreble: number; trebleAlone: null };
    expect(result.plain).toBeNull();
    expect(result.short).toBeNull();
    expect(result.besideTreble).toBe(50);
    expect(result.trebleAlone).toBeNull();
    expect(result.nominal.found).toBe(50);
    expect(result.drifted.found).toBeCloseTo(60.04, 2);
    expect(result.nominal.db).toBeGreaterThan(40);
    expect(result.drifted.db).toBeGreaterThan(30);
  });

  it('finds hum that starts after the first seconds, and takes it out from then on', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', LATE_SCRIPT, MODULE]);
    expect((JSON.parse(stdout) as { db: number }).db).toBeGreaterThan(40);
  });
});
