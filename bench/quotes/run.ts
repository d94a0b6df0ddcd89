import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { numberArg, runBench, withBenchStack, type BenchStack } from '../support/bench-stack';
import { percentile } from '../support/stats';

// bench/quotes: a burst of concurrent POST /v1/estimates through the whole stack (decision 0018).
// Baseline, in the same run: the same burst over as many distinct uploads, where every quote needs a
// probe of its own. Prints wall times, their ratio and how many quotes fell back to the maximum
// duration. With --creates N: N creates, --concurrency at a time, each of a 1 s clip on its own upload
// just PUT, while the jobs they start drain on the same workers (issue 43's burst); it prints how many
// were quoted above the clip's own price and the creates' p50/p99.
// Usage: npm run bench:quotes [-- --burst 50] [--probe-concurrency 16] [--creates 500 --concurrency 30]

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

async function createsOnFreshUploads(bench: BenchStack, total: number, concurrency: number): Promise<void> {
  const clip = join(bench.dir, 'one-second.mp4');
  await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=25:duration=1', '-f', 'lavfi', '-i', 'sine=duration=1', '-c:v', 'libx264', '-c:a', 'aac', '-shortest', clip]);
  const known = await bench.upload(clip);
  const price = (await (await fetch(`${bench.stack.apiUrl}/v1/estimates?type=clean-audio-video`, { method: 'POST', headers: bench.headers, body: JSON.stringify({ video_url: known }) })).json()) as Estimate;
  const latencies: number[] = [];
  let overquoted = 0;
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        const videoUrl = await bench.upload(clip);
        const t0 = process.hrtime.bigint();
        const res = await fetch(`${bench.stack.apiUrl}/v1/clean-audio-video`, { method: 'POST', headers: bench.headers, body: JSON.stringify({ video_url: videoUrl }) });
        latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
        if (res.status !== 202) throw new Error(`create answered ${res.status}: ${await res.text()}`);
        if (((await res.json()) as { credits_estimated: number }).credits_estimated > price.credits_estimated) overquoted++;
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  console.log(`\n${total} creates, ${concurrency} at a time, each on its own upload of a 1 s clip just PUT, jobs draining`);
  console.log(`  the clip's price ${price.credits_estimated} credits (${price.basis})`);
  console.log(`  quoted above it                    ${overquoted} of ${total}`);
  console.log(`  creates p50 ${percentile(latencies, 50).toFixed(0)} ms   p99 ${percentile(latencies, 99).toFixed(0)} ms   ${(total / seconds).toFixed(1)} uploads+creates/s`);
}

async function main(): Promise<void> {
  const creates = numberArg('--creates', 0);
  const probeConcurrency = numberArg('--probe-concurrency', 16);
  // Limits far away: this measures the quotes, not the rate limiter or the processing cap.
  const env = { RATE_LIMIT_WRITE_BURST: '1000000', RATE_LIMIT_READ_BURST: '1000000', ACCOUNT_MAX_PROCESSING_JOBS: '1000000', DURATION_PROBE_CONCURRENCY: String(probeConcurrency) };
  if (creates > 0) {
    await withBenchStack(env, (bench) => createsOnFreshUploads(bench, creates, numberArg('--concurrency', 30)));
    return;
  }
  const size = numberArg('--burst', 50);
  await withBenchStack(env, async (bench) => {
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
