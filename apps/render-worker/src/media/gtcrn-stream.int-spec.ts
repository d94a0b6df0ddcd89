import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lavfiPcm } from './testing/media-tools';
import { bestLag, noisyVoice, toSamples } from './testing/pcm';

// gtcrn-stream.mjs is an ES module that instantiates a wasm: Jest cannot load it in-process, so a
// child node runs it over PCM on stdin and writes what came out on stdout.
const STREAM = join(__dirname, 'gtcrn-stream.mjs');
const RUN = `
import { GtcrnStream, prepare } from ${JSON.stringify(STREAM)};
// With 'prepared', as a warm process runs it (warm-node-bootstrap.mjs): after prepare() and a pause
// for the optimizing compiler.
if (process.argv.includes('prepared')) {
  await prepare();
  await new Promise((resolve) => setTimeout(resolve, 500));
}
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const bytes = Buffer.concat(chunks);
const input = new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
const stream = await GtcrnStream.create();
const frames = [];
for (let at = 0; at + 480 <= input.length; at += 480) frames.push(...stream.push(input.subarray(at, at + 480)));
stream.destroy();
const output = Int16Array.from(frames.flatMap((frame) => [...frame]), (sample) => Math.max(-32768, Math.min(32767, Math.round(sample))));
process.stdout.write(Buffer.from(output.buffer));
`;

// `prepared`: prepare() first, in a process where V8 may use its optimizing compiler; else, where
// given `flags`, as they say.
async function enhance(input: Int16Array, { prepared = false, flags = [] as string[] } = {}): Promise<Int16Array> {
  const child = execFile(process.execPath, [...flags, '--input-type=module', '-e', RUN, ...(prepared ? ['prepared'] : [])], { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
  const output = new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(chunks)) : reject(new Error(`gtcrn child exited ${code}`))));
  });
  child.stdin?.end(Buffer.from(input.buffer, input.byteOffset, input.byteLength));
  return toSamples(await output);
}

function power(samples: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += samples[i] ** 2;
  return sum / samples.length;
}

describe('gtcrn-stream.mjs', () => {
  it('gives each frame back enhanced, lined up with the input: GTCRN_LAG is its lag', async () => {
    const input = noisyVoice(48_000 * 3);
    const output = await enhance(input);
    // The frames still inside the network at the end are not pushed out here (the filter flushes them).
    expect(output.length).toBeGreaterThan(input.length - 6 * 480);
    expect(bestLag(output, input.subarray(0, output.length), 1000)).toBe(0);
  });

  it('gives the same samples in a process that prepared it (a warm one) as with the baseline compiler alone', async () => {
    const input = noisyVoice(48_000);
    expect(await enhance(input, { prepared: true })).toEqual(await enhance(input, { flags: ['--liftoff-only'] }));
  });

  it('takes white noise alone down by more than 40 dB', async () => {
    const noise = toSamples(await lavfiPcm('anoisesrc=color=white:amplitude=0.1:seed=7:duration=3:sample_rate=48000'));
    const output = await enhance(noise);
    expect(10 * Math.log10(power(output) / power(noise.subarray(0, output.length)))).toBeLessThan(-40);
  });

  it('is pinned to the exact package version whose minified wasm exports it reads', () => {
    const source = readFileSync(STREAM, 'utf8');
    const pinned = /const PINNED_VERSION = '([^']+)'/.exec(source)?.[1];
    const manifest = JSON.parse(readFileSync(join(__dirname, '../../../../package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(manifest.dependencies['@sapphi-red/web-noise-suppressor']).toBe(pinned);
  });
});
