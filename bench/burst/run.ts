import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { serveFolder } from '../../test/support/file-server';
import { numberArg, runBench, withBenchStack } from '../support/bench-stack';
import { percentile } from '../support/stats';

// bench/burst: N creates at a fixed concurrency against the whole stack with 3 render
// workers, each a 1 s clean-audio job on a URL input. Prints the creates' rate and p50/p99, the time for
// the workers to drain the queue, and checks billing's identity: balance = start - sum(credits_charged),
// nothing held, every COMPLETED job charged. Usage: npm run bench:burst [-- --jobs 1000 --concurrency 50]

const run = promisify(execFile);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const total = numberArg('--jobs', 1000);
  const concurrency = numberArg('--concurrency', 50);
  // Limits far away: this measures the platform, not the rate limiter.
  const env = {
    RENDER_WORKERS: '3',
    TRANSLOAD_ALLOW_HOSTS: '127.0.0.1',
    RATE_LIMIT_WRITE_BURST: '1000000',
    RATE_LIMIT_READ_BURST: '1000000',
    ACCOUNT_MAX_PROCESSING_JOBS: '1000000',
  };
  await withBenchStack(env, async (bench) => {
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=25:duration=1', '-f', 'lavfi', '-i', 'sine=duration=1', '-c:v', 'libx264', '-c:a', 'aac', '-shortest', join(bench.dir, 'clip.mp4')]);
    const files = await serveFolder(bench.dir);
    try {
      const api = bench.stack.apiUrl;
      const balance = async () => (await (await fetch(`${api}/v1/billing/balance`, { headers: bench.headers })).json()) as { balance: number; held: number };
      const before = await balance();
      const latencies: number[] = [];
      const jobIds: string[] = [];
      let next = 0;
      const started = Date.now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < total) {
            next++;
            const t0 = Date.now();
            const res = await fetch(`${api}/v1/clean-audio-video`, { method: 'POST', headers: bench.headers, body: JSON.stringify({ video_url: `${files.baseUrl}/clip.mp4` }) });
            latencies.push(Date.now() - t0);
            if (res.status !== 202) throw new Error(`create answered ${res.status}: ${await res.text()}`);
            jobIds.push(((await res.json()) as { job_id: string }).job_id);
          }
        }),
      );
      const createSeconds = (Date.now() - started) / 1000;
      const statusOf = async (jobId: string) =>
        (await (await fetch(`${api}/v1/clean-audio-video/${jobId}`, { headers: bench.headers })).json()) as { status: string; credits_charged?: number };
      let jobs: { status: string; credits_charged?: number }[] = [];
      for (;;) {
        jobs = [];
        for (let i = 0; i < jobIds.length; i += 50) jobs.push(...(await Promise.all(jobIds.slice(i, i + 50).map(statusOf))));
        if (jobs.every((job) => job.status !== 'PROCESSING' && (job.status !== 'COMPLETED' || typeof job.credits_charged === 'number'))) break;
        await sleep(2_000);
      }
      const drainSeconds = (Date.now() - started) / 1000;
      let after = await balance();
      for (let tries = 0; after.held !== 0 && tries < 30; tries++) {
        await sleep(1_000);
        after = await balance();
      }
      const charged = jobs.reduce((sum, job) => sum + (job.credits_charged ?? 0), 0);
      const byStatus = jobs.reduce<Record<string, number>>((counts, job) => ({ ...counts, [job.status]: (counts[job.status] ?? 0) + 1 }), {});
      const identity = after.balance === before.balance - charged && after.held === 0;
      console.log(`\n${total} creates of a 1 s clean-audio job at concurrency ${concurrency}, 3 render workers`);
      console.log(`  creates     ${(total / createSeconds).toFixed(1)}/s   p50 ${percentile(latencies, 50)} ms   p99 ${percentile(latencies, 99)} ms`);
      console.log(`  drained in  ${drainSeconds.toFixed(1)} s from the first create (${(total / drainSeconds).toFixed(2)} jobs/s)   ${JSON.stringify(byStatus)}`);
      console.log(`  billing     balance ${before.balance} -> ${after.balance}, charged ${charged}, held ${after.held}: ${identity ? 'exact' : 'WRONG'}`);
      if (!identity || byStatus.COMPLETED !== total) process.exitCode = 1;
    } finally {
      await files.close();
    }
  });
}

runBench(main);
