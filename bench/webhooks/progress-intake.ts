import { randomUUID } from 'node:crypto';
import { CONSUMERS, STREAMS, subjects, type JobProgressUpdateV1 } from '@vj/contracts';
import { createDatabase, startNatsServer, startPostgresCluster, waitFor } from '@vj/local-stack';
import { encodeJson, ensureStreams, PullLoop } from '@vj/messaging';
import { AckPolicy, connect, type NatsConnection } from 'nats';
import type { DataSource } from 'typeorm';
import { createWebhooksDataSource } from '../../apps/webhook-delivery/src/database/webhooks-data-source';
import { runWebhooksMigrations } from '../../apps/webhook-delivery/src/database/run-webhooks-migrations';
import { WebhookEndpointEntity } from '../../apps/webhook-delivery/src/database/webhook-endpoint.entity';
import { newWebhookSecret } from '../../apps/webhook-delivery/src/domain/endpoint-secrets';
import { JobProgressIntake } from '../../apps/webhook-delivery/src/intake/job-progress-intake';
import { ProgressEndpoints } from '../../apps/webhook-delivery/src/intake/progress-endpoints';
import { numberArg, runBench } from '../support/bench-stack';
import { cpuSince, processCpu } from '../support/process-cpu';
import { median } from '../support/stats';

// bench/webhooks/progress-intake (decision 0062): how fast webhook delivery takes the workers' progress
// updates (VJ_JOB_UPDATES, one a second per running job), and its CPU per update, against the baseline
// of the same updates pulled and acknowledged with no work, in the same run, rounds alternating. A
// private PostgreSQL and nats-server; --accounts accounts with jobs running, one in ten with an
// endpoint that opted in to job.progress (a delivery row per update of theirs), the rest with none.
// Usage: npm run bench:progress-intake [-- --updates 3000 --accounts 200 --rounds 3]

const UPDATES = numberArg('--updates', 3000);
const ACCOUNTS = numberArg('--accounts', 200);
const ROUNDS = numberArg('--rounds', 3);
const OPTED_IN_EVERY = 10;
const ACK_ONLY = 'bench-ack-only';

interface Drained {
  ms: number;
  cpu: [string, number][];
}

async function publishRound(nc: NatsConnection, accounts: string[]): Promise<void> {
  const js = nc.jetstream();
  const occurred_at = new Date().toISOString();
  for (let from = 0; from < UPDATES; from += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, UPDATES - from) }, (_, k) => {
        const job_id = randomUUID();
        const update: JobProgressUpdateV1 = { version: 1, kind: 'progress', job_id, account_id: accounts[(from + k) % accounts.length]!, job_type: 'clean-audio-video', occurred_at, stage: 'processing', progress: 0.5, attempt: 1 };
        return js.publish(subjects.jobUpdate(job_id), encodeJson(update));
      }),
    );
  }
}

// Runs one reader until its consumer has nothing pending or in hand.
async function drain(nc: NatsConnection, durable: string, start: () => Promise<() => Promise<void>>): Promise<Drained> {
  const jsm = await nc.jetstreamManager();
  const before = processCpu();
  const started = performance.now();
  const stop = await start();
  await waitFor(`${durable} drained`, async () => {
    const info = await jsm.consumers.info(STREAMS.jobUpdates, durable);
    return info.num_pending === 0 && info.num_ack_pending === 0;
  }, 300_000, 10);
  const ms = performance.now() - started;
  const cpu = cpuSince(before);
  await stop();
  return { ms, cpu };
}

function line(label: string, { ms, cpu }: Drained): string {
  const perUpdate = cpu.filter(([, spent]) => (spent / UPDATES) * 1000 >= 5).map(([name, spent]) => `${name} ${((spent / UPDATES) * 1000).toFixed(0)} us`);
  return `${label.padEnd(26)} ${((UPDATES / ms) * 1000).toFixed(0).padStart(6)} updates/s   CPU an update: ${perUpdate.join(', ')}`;
}

async function optInEvery(dataSource: DataSource, accounts: string[]): Promise<void> {
  const now = new Date();
  for (let i = 0; i < accounts.length; i += OPTED_IN_EVERY) {
    await dataSource.manager.insert(WebhookEndpointEntity, {
      endpoint_id: randomUUID(), account_id: accounts[i]!, url: 'https://hooks.example.com/progress', events: ['job.progress'], job_id: null, secret: newWebhookSecret(),
      previous_secret: null, previous_secret_expires_at: null, disabled_at: null, disabled_reason: null, deleted_at: null, created_at: now,
    });
  }
}

runBench(async () => {
  const pg = await startPostgresCluster({ durable: false });
  const nats = await startNatsServer();
  const nc = await connect({ servers: nats.url });
  try {
    await ensureStreams(nc);
    const dataSource = await createWebhooksDataSource(await createDatabase(pg.adminUrl, 'progress_bench')).initialize();
    await runWebhooksMigrations(dataSource);
    const accounts = Array.from({ length: ACCOUNTS }, () => randomUUID());
    await optInEvery(dataSource, accounts);
    const jsm = await nc.jetstreamManager();
    await jsm.consumers.add(STREAMS.jobUpdates, { durable_name: ACK_ONLY, ack_policy: AckPolicy.Explicit, filter_subject: subjects.jobUpdateAll() });
    // The intake's own durable consumer, made before the first round so it sees every round's updates.
    const warm = new JobProgressIntake(nc, dataSource, new ProgressEndpoints(dataSource), () => undefined, () => undefined);
    await warm.start();
    await warm.stop();
    console.log(`bench:progress-intake: ${UPDATES} progress updates a round over ${ACCOUNTS} accounts (one in ${OPTED_IN_EVERY} opted in); "load generator" is this process (the reader)`);
    const ratios: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await publishRound(nc, accounts);
      const bare = await drain(nc, ACK_ONLY, async () => {
        const open = () => nc.jetstream().consumers.get(STREAMS.jobUpdates, ACK_ONLY);
        const quiet = () => undefined;
        const pull = new PullLoop(open, { durable: ACK_ONLY, concurrency: 1, expiresMs: 30_000, prefetch: 100 }, async (msg) => msg.ack(), { warn: quiet, error: quiet });
        pull.start(await open());
        return () => pull.close();
      });
      const intake = await drain(nc, CONSUMERS.webhooksJobUpdates, async () => {
        const reader = new JobProgressIntake(nc, dataSource, new ProgressEndpoints(dataSource), () => undefined, (text) => console.log(text));
        await reader.start();
        return () => reader.stop();
      });
      ratios.push(bare.ms / intake.ms);
      console.log(`round ${round + 1}\n  ${line('pulled and acknowledged', bare)}\n  ${line('progress intake', intake)}\n  intake / bare: ${(bare.ms / intake.ms).toFixed(2)}`);
    }
    console.log(`\nintake throughput / bare pull, median of ${ROUNDS}: ${median(ratios).toFixed(2)}`);
    await dataSource.destroy();
  } finally {
    await nc.close();
    await nats.stop();
    await pg.stop();
  }
});
