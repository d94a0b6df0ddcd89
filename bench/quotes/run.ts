import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { numberArg, runBench, withBenchStack, type BenchStack } from '../support/bench-stack';

// bench/quotes: a burst of concurrent POST /v1/estimates through the whole stack (decision 0018).
// Baseline, in the same run: the same burst over as many distinct uploads, where every quote needs a
// probe of its own. Prints wall times, their ratio and how many quotes fell back to the maximum
// duration. Usage: npm run bench:quotes [-- --burst 50] [--probe-concurrency 16]

const run = promisify(execFile);

interface Estimate {
  credits_estimated: number;
  basis: 'probed_duration' | 'max_duration';
}

async function burst(bench: BenchStack, videoUrls: string[]): Promise<{ seconds: number; fallbacks: number }> {
  const estimate = async (videoUrl: string): Promise<Estimate> => {
    const res = await fetch(`${bench.stack.apiUrl}/v1/estimates?type=clean-audio-video`, { method: 'POST', headers: bench.headers, body: JSON.stringify({ video_url: videoUrl }) });
    if (res.status !== 200) throw new Error(`estimate answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as Estimate;
  };
  const start = process.hrtime.bigint();
  const quotes = await Promise.all(videoUrls.map(estimate));
  return { seconds: Number(process.hrtime.bigint() - start) / 1e9, fallbacks: quotes.filter((q) => q.basis === 'max_duration').length };
}

async function main(): Promise<void> {
  const size = numberArg('--burst', 50);
  const probeConcurrency = numberArg('--probe-concurrency', 16);
  await withBenchStack({ DURATION_PROBE_CONCURRENCY: String(probeConcurrency) }, async (bench) => {
    const input = join(bench.dir, 'clip.mp4');
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25:duration=10', '-f', 'lavfi', '-i', 'sine=duration=10', '-c:v', 'libx264', '-preset', 'veryfast', '-c:a', 'aac', input]);
    const distinct = await Promise.all(Array.from({ length: size }, () => bench.upload(input)));
    const shared = await bench.upload(input);
    const base = await burst(bench, distinct);
    const same = await burst(bench, Array(size).fill(shared));
    console.log(`\n${size} concurrent quotes of a 10 s upload, all four services, ${probeConcurrency} probes at once per worker`);
    console.log(`  baseline: ${size} distinct uploads   ${base.seconds.toFixed(2)} s   ${base.fallbacks} of ${size} quoted at the maximum duration`);
    console.log(`  one upload, ${size} times          ${same.seconds.toFixed(2)} s   ${same.fallbacks} of ${size} quoted at the maximum duration`);
    console.log(`  ratio one upload / baseline        ${(same.seconds / base.seconds).toFixed(2)}`);
  });
}

runBench(main);
