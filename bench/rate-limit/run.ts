import autocannon from 'autocannon';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { freePort, waitFor } from '@vj/local-stack';
import { startService } from '../../scripts/stack/service-process';
import { numberArg, runBench, withBenchStack } from '../support/bench-stack';
import { median } from '../support/stats';

// bench/rate-limit: what the per-key token bucket (decision 0022) costs GET /v1/{type}/{id}. One stack;
// beside its gateway (limits on, buckets far too large to refuse anything) a second gateway process on
// the same database with RATE_LIMITS=off; the same job read through each, interleaved rounds of
// autocannon at saturation. Prints req/s and p50/p99 of both and their ratio (median of the rounds).
// Usage: npm run bench:rate-limit [-- --rounds 3 --seconds 5 --connections 20]

const run = promisify(execFile);

interface Round {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

async function measure(url: string, headers: Record<string, string>, seconds: number, connections: number): Promise<Round> {
  const result = await autocannon({ url, headers, duration: seconds, connections });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx };
}

async function main(): Promise<void> {
  const rounds = numberArg('--rounds', 3);
  const seconds = numberArg('--seconds', 5);
  const connections = numberArg('--connections', 20);
  const limits = { RATE_LIMIT_READ_BURST: '100000000', RATE_LIMIT_READS_PER_SECOND: '100000000' };
  await withBenchStack(limits, async (bench) => {
    const clip = join(bench.dir, 'clip.mp4');
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=25:duration=1', '-f', 'lavfi', '-i', 'sine=duration=1', '-c:v', 'libx264', '-c:a', 'aac', '-shortest', clip]);
    const created = await fetch(`${bench.stack.apiUrl}/v1/clean-audio-video`, { method: 'POST', headers: bench.headers, body: JSON.stringify({ video_url: await bench.upload(clip) }) });
    const { job_id } = (await created.json()) as { job_id: string };
    const port = await freePort();
    const unlimited = startService('gateway-unlimited', join('apps', 'gateway', 'src', 'main.ts'), { ...process.env, ...bench.stack.infra.env, NATS_URL: bench.stack.infra.natsUrl('gateway'), ...limits, LOG_LEVEL: 'warn', PORT: String(port), RATE_LIMITS: 'off' }, () => undefined);
    try {
      const unlimitedUrl = `http://127.0.0.1:${port}`;
      await waitFor('the second gateway', async () => (await fetch(`${unlimitedUrl}/healthz`).catch(() => null))?.status === 200, 60_000, 250);
      const path = `/v1/clean-audio-video/${job_id}`;
      const headers = { authorization: bench.headers.authorization };
      const on: Round[] = [];
      const off: Round[] = [];
      for (let i = 0; i < rounds; i++) {
        off.push(await measure(`${unlimitedUrl}${path}`, headers, seconds, connections));
        on.push(await measure(`${bench.stack.apiUrl}${path}`, headers, seconds, connections));
      }
      const line = (name: string, all: Round[]) =>
        `  ${name.padEnd(26)} ${median(all.map((r) => r.rps)).toFixed(0).padStart(6)} req/s   p50 ${median(all.map((r) => r.p50))} ms   p99 ${median(all.map((r) => r.p99))} ms   non-2xx ${all.reduce((n, r) => n + r.non2xx, 0)}`;
      console.log(`\nGET ${'/v1/clean-audio-video/{id}'}, ${connections} connections, ${rounds} interleaved rounds of ${seconds} s (medians)`);
      console.log(line('baseline: RATE_LIMITS=off', off));
      console.log(line('token bucket per key', on));
      console.log(`  ratio with / without        ${(median(on.map((r) => r.rps)) / median(off.map((r) => r.rps))).toFixed(2)}`);
    } finally {
      await unlimited.stop();
    }
  });
}

runBench(main);
