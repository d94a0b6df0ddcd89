import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { STREAMS } from '@vj/contracts';
import { natsServerOptions } from '@vj/messaging';
import { connect } from 'nats';
import { childrenOf, killHard } from '../../test/support/processes';
import { numberArg, runBench, withBenchStack, type BenchStack } from '../support/bench-stack';

// npm run chaos (the long run; test/e2e/chaos, outages and recovery are the short ones in npm test).
// Two render workers, NATS as a three-node JetStream cluster (streams R3, as docker-compose.yml runs it)
// and a steady load of jobs while, one after another: kill -9 of a busy worker, of the jobs service, of
// billing, of the gateway (each relaunched within seconds) and of NATS node 1, the one every service was
// given (the stack must be healthy on the other two before it is relaunched and rejoins), an outage of
// the jobs service, of billing, of every worker and of PostgreSQL (--outage-seconds, 90 by default), and three SIGTERMs
// of the busy worker. Then: every stream R3, every job COMPLETED, none stuck, balance = start -
// sum(credits_charged), held 0, every COMPLETED job charged, every result downloads.
// Usage: npm run chaos [-- --jobs 48 --outage-seconds 90]

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const live = (bench: BenchStack, prefix: string) => bench.stack.services.filter((s) => s.name.startsWith(prefix) && s.child.exitCode === null && s.child.signalCode === null);

async function waitForHealthy(bench: BenchStack): Promise<void> {
  for (let i = 0; i < 240; i++) {
    if ((await fetch(`${bench.stack.apiUrl}/healthz`).catch(() => null))?.status === 200) return;
    await sleep(500);
  }
  throw new Error('the stack did not come back healthy');
}

// Every stream's replicas as the services made them (ensureStreams): as many as the cluster's nodes.
async function replicasOfStreams(bench: BenchStack): Promise<number[]> {
  const nc = await connect(natsServerOptions(bench.stack.infra.natsUrl('jobs')));
  try {
    const jsm = await nc.jetstreamManager();
    return await Promise.all(Object.values(STREAMS).map(async (stream) => (await jsm.streams.info(stream)).config.num_replicas));
  } finally {
    await nc.close();
  }
}

async function main(): Promise<void> {
  const jobCount = numberArg('--jobs', 48);
  const outageMs = numberArg('--outage-seconds', 90) * 1000;
  const env = { RENDER_WORKERS: '2', NATS_NODES: '3', TRANSLOAD_ALLOW_HOSTS: '127.0.0.1', ACCOUNT_MAX_PROCESSING_JOBS: '100000', RATE_LIMIT_WRITE_BURST: '100000', RATE_LIMIT_READ_BURST: '100000' };
  await withBenchStack(env, async (bench) => {
    const nats = bench.stack.infra.natsCluster;
    if (!nats) throw new Error('the bench stack started no NATS cluster');
    const clip = join(bench.dir, 'clip.mp4');
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=25:duration=20', '-f', 'lavfi', '-i', 'sine=duration=20', '-c:v', 'libx264', '-c:a', 'aac', '-shortest', clip]);
    const api = bench.stack.apiUrl;
    const before = (await (await fetch(`${api}/v1/billing/balance`, { headers: bench.headers })).json()) as { balance: number };
    const jobIds: string[] = [];
    for (let i = 0; i < jobCount; i++) {
      const res = await fetch(`${api}/v1/clean-audio-video`, { method: 'POST', headers: bench.headers, body: JSON.stringify({ video_url: await bench.upload(clip) }) });
      if (res.status !== 202) throw new Error(`create answered ${res.status}`);
      jobIds.push(((await res.json()) as { job_id: string }).job_id);
    }
    const statusOf = async (jobId: string) =>
      (await (await fetch(`${api}/v1/clean-audio-video/${jobId}`, { headers: bench.headers })).json()) as { status: string; credits_charged?: number; result?: { video: { url: string } } };
    const started = Date.now();
    const step = async (what: string, fault: () => Promise<void>) => {
      const t0 = Date.now();
      await fault();
      await waitForHealthy(bench);
      console.log(`  ${what.padEnd(46)} ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    };
    console.log(`\nchaos over ${jobCount} jobs (20 s clean audio each), 2 workers, ${nats.nodes.length} NATS nodes, outages of ${outageMs / 1000} s`);
    for (const app of ['render-worker', 'jobs', 'billing', 'gateway'] as const) {
      await step(`kill -9 of ${app}, relaunched`, async () => {
        const [victim] = live(bench, app);
        await killHard(victim);
        await sleep(2_000);
        if (app === 'render-worker') bench.stack.addRenderWorker();
        else bench.stack.addService(app);
      });
    }
    // Node 1 is the one every service was given: healthy without it means each service moved to one of
    // the other two (learnt from node 1's INFO) and JetStream elected new leaders there.
    const [node1] = nats.nodes;
    const processing = (await Promise.all(jobIds.map(statusOf))).filter((job) => job.status === 'PROCESSING').length;
    await step(`kill -9 of NATS ${node1.name} (${processing} of ${jobCount} jobs processing)`, async () => {
      await node1.kill();
      await sleep(2_000);
    });
    await step(`NATS ${node1.name} relaunched, back in the cluster`, () => node1.restart());
    for (const app of ['jobs', 'billing'] as const) {
      await step(`${app} down for ${outageMs / 1000} s`, async () => {
        for (const service of live(bench, app)) await service.stop();
        await sleep(outageMs);
        bench.stack.addService(app);
      });
    }
    await step(`every worker down for ${outageMs / 1000} s`, async () => {
      const workers = live(bench, 'render-worker');
      for (const worker of workers) await worker.stop();
      await sleep(outageMs);
      for (let i = 0; i < workers.length; i++) bench.stack.addRenderWorker();
    });
    const postgres = bench.stack.infra.postgres;
    if (!postgres) throw new Error('the bench stack started no PostgreSQL');
    await step(`PostgreSQL down for ${outageMs / 1000} s`, async () => {
      await postgres.pause();
      await sleep(outageMs);
      await postgres.resume();
    });
    for (let i = 1; i <= 3; i++) {
      await step(`SIGTERM ${i} of the busy worker`, async () => {
        const busy = live(bench, 'render-worker').find((s) => childrenOf(s).some((child) => child.command === 'ffmpeg'));
        bench.stack.addRenderWorker();
        await busy?.stop();
      });
    }
    let jobs = await Promise.all(jobIds.map(statusOf));
    while (jobs.some((job) => job.status === 'PROCESSING' || (job.status === 'COMPLETED' && typeof job.credits_charged !== 'number'))) {
      if (Date.now() - started > 60 * 60_000) break;
      await sleep(5_000);
      jobs = await Promise.all(jobIds.map(statusOf));
    }
    const after = (await (await fetch(`${api}/v1/billing/balance`, { headers: bench.headers })).json()) as { balance: number; held: number };
    const charged = jobs.reduce((sum, job) => sum + (job.credits_charged ?? 0), 0);
    const downloads = await Promise.all(jobs.filter((job) => job.result).map(async (job) => (await fetch(job.result!.video.url)).status === 200));
    const byStatus = jobs.reduce<Record<string, number>>((counts, job) => ({ ...counts, [job.status]: (counts[job.status] ?? 0) + 1 }), {});
    const identity = after.balance === before.balance - charged && after.held === 0;
    const replicas = await replicasOfStreams(bench);
    const replicated = replicas.every((count) => count === nats.nodes.length);
    console.log(`  outcome after ${((Date.now() - started) / 1000).toFixed(0)} s: ${JSON.stringify(byStatus)}; results downloadable ${downloads.filter(Boolean).length}/${downloads.length}`);
    console.log(`  streams: ${replicas.map((count) => `R${count}`).join(' ')} on ${nats.nodes.length} NATS nodes: ${replicated ? 'replicated' : 'WRONG'}`);
    console.log(`  billing: ${before.balance} -> ${after.balance}, charged ${charged}, held ${after.held}: ${identity ? 'exact' : 'WRONG'}`);
    if (!identity || !replicated || byStatus.COMPLETED !== jobCount || downloads.some((ok) => !ok)) process.exitCode = 1;
  });
}

runBench(main);
