import autocannon from 'autocannon';
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { cpus, type CpuInfo } from 'node:os';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DEFAULT_METRICS_PORTS } from '@vj/config';
import type { JobType } from '@vj/contracts';
import { generateVideo } from '../../test/support/media-tools';
import { numberArg, runBench, withBenchStack, type BenchStack } from '../support/bench-stack';
import { cpuSince, processCpu } from '../support/process-cpu';
import { fixedRate } from '../support/fixed-rate';
import { median, percentile } from '../support/stats';

// bench/api (decision 0036): the public API's hot paths against the whole stack as `npm start` runs it, with a
// bare Node `http` server serving the same bytes in the same run as the baseline. Every route at
// saturation (CONNECTIONS, default 20, autocannon) and at a fixed rate (sent open loop, evenly spaced,
// latency from each request's due time: bench/support/fixed-rate.ts); the first quote of distinct uploads (a probe
// on the render worker each), then creates and estimates of those uploads, known by then; a 1 s
// clean-audio job's create-to-COMPLETED time on the idle stack, against one ffmpeg run doing its media
// work on the same clip in the same run (oneFfmpegBaseline), interleaved. Creates at saturation are also given as
// sustained: the creates answered over the row's seconds plus the time the stack then took to catch up
// with their holds and funding (its CPU idle again). Socket errors (resets, "other side closed",
// timeouts) are counted on every row: a load balancer or an SDK would see each. The CPU a create costs is
// given by process over the saturation row and its catching up: steadier than req/s on a noisy machine.
// Creates are measured from one account (its creates queue on its billing row and its cap's lock) and
// spread over --accounts accounts, as production load comes: one API key may write 20/s by default.
// Usage: npm run bench:api [-- --seconds 5 --connections 20 --uploads 400 --accounts 20 --job-runs 5 --job-only --creates-only]

const SECONDS = numberArg('--seconds', 5);
const CONNECTIONS = numberArg('--connections', 20);
const UPLOADS = numberArg('--uploads', 400);
const ACCOUNTS = numberArg('--accounts', 20);
// Each of those accounts' known uploads: its creates take them in turn.
const UPLOADS_PER_ACCOUNT = 5;
const JOB_RUNS = numberArg('--job-runs', 5);
// Only the 1 s job's create-to-COMPLETED time (the job overhead), none of the load rows.
const JOB_ONLY = process.argv.includes('--job-only');
// Only the creates, estimates and uploads rows (and the CPU a create costs), and of the reads only the
// PROCESSING job's.
const CREATES_ONLY = process.argv.includes('--creates-only');
// Limits far away: this measures the platform, not the rate limiter or the processing cap.
const ENV = {
  RATE_LIMIT_READ_BURST: '100000000',
  RATE_LIMIT_READS_PER_SECOND: '100000000',
  RATE_LIMIT_WRITE_BURST: '100000000',
  RATE_LIMIT_WRITES_PER_SECOND: '100000000',
  ACCOUNT_MAX_PROCESSING_JOBS: '100000000',
};

interface Row {
  route: string;
  load: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  socketErrors: number;
  answered: number;
}

interface Load {
  route: string;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  // The same body each time.
  body?: string;
  // A body (distinct uploads) and the headers (another account's key) per request.
  next?: () => { body: string; headers?: Record<string, string> };
  rate?: number;
  amount?: number;
  connections?: number;
}

async function measure(load: Load): Promise<Row> {
  return load.rate ? measureFixedRate(load, load.rate) : measureSaturation(load);
}

// autocannon, every connection sending its next request as soon as the last is answered.
async function measureSaturation(load: Load): Promise<Row> {
  const { body, next } = load;
  const result = await autocannon({
    url: load.url,
    method: load.method ?? 'GET',
    headers: load.headers,
    connections: load.connections ?? CONNECTIONS,
    ...(load.amount ? { amount: load.amount } : { duration: SECONDS }),
    ...(body !== undefined && { body }),
    ...(next && {
      requests: [
        {
          setupRequest: (request) => {
            const { body: each, headers } = next();
            return { ...request, body: each, headers: { ...request.headers, ...headers } };
          },
        },
      ],
    }),
  });
  return {
    route: load.route,
    load: load.amount ? `${load.amount} requests` : `saturation`,
    rps: load.amount ? result.requests.total / result.duration : result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    // autocannon's errors include its timeouts: every request that got no HTTP answer.
    socketErrors: result.errors,
    answered: result['2xx'],
  };
}

// Requests sent at a steady `rate`, open loop (fixed-rate.ts), so a row is what a client sending that
// rate sees; latency from each request's due time.
async function measureFixedRate(load: Load, rate: number): Promise<Row> {
  const result = await fixedRate({
    rate,
    ...(load.amount ? { amount: load.amount } : { seconds: SECONDS }),
    next: () => {
      const each = load.next?.();
      return { url: load.url, method: load.method ?? 'GET', headers: { ...load.headers, ...each?.headers }, body: each?.body ?? load.body };
    },
  });
  return {
    route: load.route,
    load: `${rate} req/s`,
    rps: result.latencies.length / result.seconds,
    p50: percentile(result.latencies, 50),
    p99: percentile(result.latencies, 99),
    non2xx: result.non2xx,
    socketErrors: result.errors,
    answered: result.ok,
  };
}

// How long until the machine's CPU is at least 80 % idle over a second: the stack has caught up with
// the work a row left behind. At most a minute.
async function waitForIdleCpu(): Promise<number> {
  const started = performance.now();
  const idleShare = async () => {
    const before = cpus();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const after = cpus();
    const sum = (list: CpuInfo[], pick: (times: CpuInfo['times']) => number) => list.reduce((total, cpu) => total + pick(cpu.times), 0);
    const total = (times: CpuInfo['times']) => times.user + times.nice + times.sys + times.idle + times.irq;
    return (sum(after, (t) => t.idle) - sum(before, (t) => t.idle)) / (sum(after, total) - sum(before, total));
  };
  while (performance.now() - started < 60_000 && (await idleShare()) < 0.8);
  // The last second measured was already idle.
  return performance.now() - started - 1000;
}

// The baseline: the same status, headers that matter and body, from a bare Node server on this machine.
async function startBareServer(body: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

// Uploads `count` copies of the clip, each its own upload (its own probe), a few at a time.
async function distinctUploads(bench: BenchStack, clip: string, count: number): Promise<string[]> {
  const urls: string[] = [];
  for (let i = 0; i < count; i += 10) urls.push(...(await Promise.all(Array.from({ length: Math.min(10, count - i) }, () => bench.upload(clip)))));
  return urls;
}

// create with Prefer: wait: the answer is the final job, so the wall time is create-to-COMPLETED.
async function timeOneSecondJob(bench: BenchStack, videoUrl: string, type: JobType = 'clean-audio-video'): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${bench.stack.apiUrl}/v1/${type}`, { method: 'POST', headers: { ...bench.headers, prefer: 'wait=60' }, body: JSON.stringify({ video_url: videoUrl }) });
  const job = (await res.json()) as { status: string };
  if (job.status !== 'COMPLETED') throw new Error(`the 1 s job ended ${job.status}: ${JSON.stringify(job)}`);
  return performance.now() - started;
}

// The 1 s job's media work as one ffmpeg run: decode, denoise (ffmpeg's own afftdn standing for the
// denoiser), 48 kHz mono AAC, the picture copied, muxed into an MP4. What the job adds to it is the
// platform's: its probes, its other processes, the queue, the transfers.
async function oneFfmpegBaseline(clip: string, dir: string): Promise<number> {
  const started = performance.now();
  await promisify(execFile)('ffmpeg', ['-hide_banner', '-nostdin', '-v', 'error', '-y', '-i', clip, '-map', '0:v:0', '-map', '0:a:0', '-c:v', 'copy', '-af', 'afftdn', '-ar', '48000', '-ac', '1', '-c:a', 'aac', join(dir, 'baseline.mp4')]);
  return performance.now() - started;
}

// The render worker's worker_processes_started_total by program, from its /metrics on its default
// port (the stack runs one worker); empty when that port answers with no such counter.
async function processStarts(): Promise<Map<string, number>> {
  const text = await (await fetch(`http://127.0.0.1:${DEFAULT_METRICS_PORTS['render-worker']}/metrics`)).text().catch(() => '');
  const starts = new Map<string, number>();
  for (const [, program, count] of text.matchAll(/^worker_processes_started_total\{program="([^"]+)"\} (\d+)$/gm)) starts.set(program!, Number(count));
  return starts;
}

// The processes one more job of the type starts, by program.
async function processesOfOneJob(bench: BenchStack, clip: string, type: JobType): Promise<string> {
  const videoUrl = await bench.upload(clip);
  const before = await processStarts();
  await timeOneSecondJob(bench, videoUrl, type);
  const after = await processStarts();
  const started = [...after].map(([program, count]) => [program, count - (before.get(program) ?? 0)] as const).filter(([, count]) => count > 0);
  const total = started.reduce((sum, [, count]) => sum + count, 0);
  return `${type}: ${total} (${started.map(([program, count]) => `${program} ${count}`).join(', ') || 'no counter on the worker\'s metrics port'})`;
}

// Hands out the requests in turn, round and round.
function inTurn<T>(requests: T[]): () => T {
  let next = 0;
  return () => requests[next++ % requests.length]!;
}

interface CreateRows {
  rows: Row[];
  answered: number;
  cpu: [string, number][];
}

// Creates at saturation, then at a fixed 100/s. Each answered create leaves billing's hold and the
// job's funding to run: the saturation row is sustainable only if those keep up, so the stack's
// catching up is timed and counted in, and so is its CPU.
async function measureCreates(load: Load): Promise<CreateRows> {
  const cpuBefore = processCpu();
  const creates = await measure({ ...load, connections: 30 });
  const drainMs = await waitForIdleCpu();
  const cpu = cpuSince(cpuBefore);
  const sustained: Row = { ...creates, load: 'sustained', rps: creates.answered / (SECONDS + drainMs / 1000), p50: NaN, p99: NaN, non2xx: 0, socketErrors: 0 };
  return { rows: [creates, sustained, await measure({ ...load, rate: 100 })], answered: creates.answered, cpu };
}

// ACCOUNTS accounts made with the operator's CLI, each with its own key, credits and known uploads
// (each probed by a first estimate): one request per upload, the accounts in turn.
async function benchAccounts(bench: BenchStack, clip: string): Promise<{ body: string; headers: Record<string, string> }[]> {
  const callers: { body: string; headers: Record<string, string> }[] = [];
  const estimatesUrl = `${bench.stack.apiUrl}/v1/estimates?type=clean-audio-video`;
  for (let first = 0; first < ACCOUNTS; first += 4) {
    const made = await Promise.all(
      Array.from({ length: Math.min(4, ACCOUNTS - first) }, async (_, i) => {
        const output = await bench.stack.cli(['account', 'create', '--name', `bench-${first + i}`, '--credits', '100000000']);
        const { api_key } = JSON.parse(output) as { api_key: string };
        const headers = { ...bench.headers, authorization: `Bearer ${api_key}` };
        const uploads = await Promise.all(Array.from({ length: UPLOADS_PER_ACCOUNT }, () => bench.upload(clip, headers)));
        const bodies = uploads.map((url) => JSON.stringify({ video_url: url }));
        await Promise.all(bodies.map((body) => fetch(estimatesUrl, { method: 'POST', headers, body })));
        return bodies.map((body) => ({ body, headers }));
      }),
    );
    callers.push(...made.flat());
  }
  // Interleaved: consecutive creates come from different accounts.
  return Array.from({ length: UPLOADS_PER_ACCOUNT }, (_, upload) => callers.filter((_, i) => i % UPLOADS_PER_ACCOUNT === upload)).flat();
}

// Every route's saturation and a fixed rate.
async function readRows(api: string, jobPath: string, auth: Record<string, string>): Promise<Row[]> {
  const rows: Row[] = [];
  for (const route of [jobPath, '/v1/jobs?limit=20', '/v1/billing/balance', '/healthz']) {
    const name = route === jobPath ? 'GET /v1/clean-audio-video/{id}, COMPLETED' : `GET ${route}`;
    rows.push(await measure({ route: name, url: `${api}${route}`, headers: auth }));
    rows.push(await measure({ route: name, url: `${api}${route}`, headers: auth, rate: 200 }));
  }
  const readyz = 'http://127.0.0.1:9460/readyz';
  if ((await fetch(readyz).catch(() => null))?.ok) rows.push(await measure({ route: 'GET /readyz (gateway ops port)', url: readyz }));
  return rows;
}

// The CPU of the saturation row and its catching up, per create answered, by process.
function printCreateCpu(label: string, { cpu, answered }: CreateRows): void {
  const total = cpu.reduce((sum, [, ms]) => sum + ms, 0);
  const cores = cpus().length;
  console.log(`\nCPU per create at saturation (${label}), catching up included: ${(total / answered).toFixed(2)} ms (on ${cores} cores: at most ${((cores * 1000 * answered) / total).toFixed(0)} creates/s)`);
  for (const [name, ms] of cpu.filter(([, ms]) => ms / answered >= 0.05)) console.log(`  ${name.padEnd(32)} ${(ms / answered).toFixed(2).padStart(6)} ms`);
}

function print(rows: Row[], bareRps: number): void {
  console.log(`\n${'route'.padEnd(44)} ${'load'.padEnd(14)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'x bare'.padStart(7)} ${'non-2xx'.padStart(8)} ${'socket errors'.padStart(14)}`);
  for (const row of rows) {
    const ratio = row.load === 'saturation' ? (row.rps / bareRps).toFixed(3) : '';
    const ms = (value: number) => (Number.isNaN(value) ? '' : Number.isInteger(value) ? String(value) : value.toFixed(1)).padStart(7);
    console.log(
      `${row.route.padEnd(44)} ${row.load.padEnd(14)} ${row.rps.toFixed(0).padStart(8)} ${ms(row.p50)} ${ms(row.p99)} ${ratio.padStart(7)} ${String(row.non2xx).padStart(8)} ${String(row.socketErrors).padStart(14)}`,
    );
  }
}

runBench(() =>
  withBenchStack(ENV, async (bench) => {
    const api = bench.stack.apiUrl;
    const auth = { authorization: bench.headers.authorization! };
    const json = bench.headers;
    const clip = join(bench.dir, 'clip.mp4');
    await generateVideo(clip, { codec: 'h264', seconds: 1, audio: true, size: '160x120' });

    // On the idle stack first: the render worker waits for work.
    const jobTimes: number[] = [];
    const baselineTimes: number[] = [];
    let jobId = '';
    for (let i = 0; i < JOB_RUNS + 1; i++) {
      const videoUrl = await bench.upload(clip);
      const ms = await timeOneSecondJob(bench, videoUrl);
      const baselineMs = await oneFfmpegBaseline(clip, bench.dir);
      // The first run warms the worker (model load, JIT) and is left out.
      if (i > 0) {
        jobTimes.push(ms);
        baselineTimes.push(baselineMs);
      }
      jobId ||= ((await (await fetch(`${api}/v1/jobs?limit=1`, { headers: auth })).json()) as { data: { job: { job_id: string } }[] }).data[0]!.job.job_id;
    }

    const starts = [await processesOfOneJob(bench, clip, 'clean-audio-video'), await processesOfOneJob(bench, clip, 'video-background-removal')];
    const jobSummary = [
      `1 s clean-audio job, create (Prefer: wait) to COMPLETED on the idle stack: median ${median(jobTimes).toFixed(0)} ms, min ${Math.min(...jobTimes).toFixed(0)} ms (${jobTimes.length} runs)`,
      `one ffmpeg run doing its media work (decode, afftdn, AAC, picture copied, MP4), interleaved: median ${median(baselineTimes).toFixed(0)} ms; the job ${(median(jobTimes) / median(baselineTimes)).toFixed(2)}x it`,
      `processes a 1 s job starts on the worker, ${starts.join('; ')}`,
    ].join('\n');
    if (JOB_ONLY) return console.log(`\n${jobSummary}`);

    const jobPath = `/v1/clean-audio-video/${jobId}`;
    const jobBody = await (await fetch(`${api}${jobPath}`, { headers: auth })).text();
    const bare = await startBareServer(jobBody);
    const rows: Row[] = [];
    try {
      const bareRow = await measure({ route: 'bare Node http, same job body', url: bare.url });
      rows.push(bareRow, await measure({ route: 'bare Node http, same job body', url: bare.url, rate: 200 }));
      if (!CREATES_ONLY) rows.push(...(await readRows(api, jobPath, auth)));

      // The first quote of an upload probes it on a render worker and keeps its duration with the upload
      // (decision 0036): measured with estimates, which make no job for the worker to run.
      const uploads = await distinctUploads(bench, clip, UPLOADS);
      const nextUpload = inTurn(uploads.map((url) => ({ body: JSON.stringify({ video_url: url }) })));
      const estimates = { url: `${api}/v1/estimates?type=clean-audio-video`, method: 'POST' as const, headers: json, next: nextUpload };
      rows.push(await measure({ ...estimates, route: 'POST /v1/estimates, first use', amount: uploads.length, connections: 30 }));

      // The accounts' uploads are probed by their first estimates too, while a worker can answer them.
      const callers = await benchAccounts(bench, clip);
      // Creates measure the API alone: the render worker stops, the jobs wait in the queue.
      await Promise.all(bench.stack.services.filter((service) => service.name.startsWith('render-worker')).map((worker) => worker.stop()));
      // A job that stays PROCESSING (no worker): what a client polling a running job reads.
      const queued = (await (await fetch(`${api}/v1/clean-audio-video`, { method: 'POST', headers: json, body: JSON.stringify({ video_url: await bench.upload(clip) }) })).json()) as { job_id: string };
      const queuedUrl = `${api}/v1/clean-audio-video/${queued.job_id}`;
      rows.push(await measure({ route: 'GET /v1/clean-audio-video/{id}, PROCESSING', url: queuedUrl, headers: auth }));
      rows.push(await measure({ route: 'GET /v1/clean-audio-video/{id}, PROCESSING', url: queuedUrl, headers: auth, rate: 200 }));
      const create = { url: `${api}/v1/clean-audio-video`, method: 'POST' as const, headers: json };
      // A create's own latency: one at a time on the idle stack.
      rows.push(await measure({ ...create, route: 'POST /v1/clean-audio-video, one at a time', next: nextUpload, connections: 1, amount: 200 }));
      await waitForIdleCpu();
      const oneAccount = await measureCreates({ ...create, route: 'POST /v1/clean-audio-video, known uploads', next: nextUpload });
      const spread = await measureCreates({ ...create, route: `  the same, over ${ACCOUNTS} accounts`, next: inTurn(callers) });
      rows.push(...oneAccount.rows, ...spread.rows);
      rows.push(await measure({ ...estimates, route: 'POST /v1/estimates, known uploads' }));
      const uploadBody = JSON.stringify({ file_name: 'clip.mp4', content_type: 'video/mp4', file_size: 1000 });
      rows.push(await measure({ route: 'POST /v1/uploads', url: `${api}/v1/uploads`, method: 'POST', headers: json, body: uploadBody }));
      rows.push(await measure({ route: 'POST /v1/uploads', url: `${api}/v1/uploads`, method: 'POST', headers: json, body: uploadBody, rate: 100 }));

      console.log(`\nbench:api: ${SECONDS} s per row, ${CONNECTIONS} connections (creates 30), one render worker, 2 cores shared with the load generator; fixed rates sent open loop; Node.js ${process.version} for the stack, the load and the bare server`);
      print(rows, bareRow.rps);
      console.log(`\n${jobSummary}`);
      printCreateCpu('one account', oneAccount);
      printCreateCpu(`${ACCOUNTS} accounts`, spread);
      const socketErrors = rows.reduce((sum, row) => sum + row.socketErrors, 0);
      console.log(`socket errors over all rows: ${socketErrors}`);
    } finally {
      await bare.close();
    }
  }),
);
