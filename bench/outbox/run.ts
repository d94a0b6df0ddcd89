import { createDatabase, startNatsServer, startPostgresCluster } from '@vj/local-stack';
import { JetStreamPublisher } from '@vj/messaging';
import { OutboxRelay, outboxEntity, outboxInsertSql, outboxRows, type OutboxDraft } from '@vj/outbox';
import { connect, type NatsConnection } from 'nats';
import { DataSource } from 'typeorm';
import { numberArg, runBench } from '../support/bench-stack';
import { cpuSince, processCpu } from '../support/process-cpu';
import { median } from '../support/stats';

// bench/outbox (decision 0052): how fast the outbox relay drains committed rows into
// JetStream, and its CPU per message, against the same messages published straight from memory in
// batches of the relay's size (no database: the least a relay can do), in the same run, rounds
// alternating. A private PostgreSQL and nats-server; payloads the size of a job event.
// Usage: npm run bench:outbox [-- --messages 3000 --rounds 3]

const MESSAGES = numberArg('--messages', 3000);
const ROUNDS = numberArg('--rounds', 3);
const BATCH = 100;
const SCHEMA = 'bench_outbox';

interface Drained {
  ms: number;
  cpu: [string, number][];
}

const drafts = (round: string, from: number): OutboxDraft[] =>
  Array.from({ length: BATCH }, (_, k) => ({
    subject: `bench.job.${(from + k) % 7}`,
    msgId: `${round}-${from + k}`,
    payload: { job_id: `job-${from + k}`, account_id: 'account', pad: 'x'.repeat(300) },
  }));

async function timed(work: () => Promise<void>): Promise<Drained> {
  const before = processCpu();
  const started = performance.now();
  await work();
  return { ms: performance.now() - started, cpu: cpuSince(before) };
}

async function relayRound(dataSource: DataSource, relay: OutboxRelay, round: string): Promise<Drained> {
  for (let from = 0; from < MESSAGES; from += BATCH) await dataSource.query(outboxInsertSql(SCHEMA, 1), [JSON.stringify(outboxRows(drafts(round, from), new Date()))]);
  return timed(async () => {
    let published = 0;
    while (published < MESSAGES) published += await relay.publishBatch();
  });
}

async function bareRound(nc: NatsConnection, round: string): Promise<Drained> {
  const publisher = new JetStreamPublisher(nc);
  return timed(async () => {
    for (let from = 0; from < MESSAGES; from += BATCH) await Promise.all(drafts(round, from).map((draft) => publisher.publish(draft.subject, draft.payload, { msgId: draft.msgId })));
  });
}

function line(label: string, { ms, cpu }: Drained): string {
  const perMessage = cpu.filter(([, spent]) => (spent / MESSAGES) * 1000 >= 5).map(([name, spent]) => `${name} ${((spent / MESSAGES) * 1000).toFixed(0)} us`);
  return `${label.padEnd(28)} ${((MESSAGES / ms) * 1000).toFixed(0).padStart(6)} msg/s   CPU a message: ${perMessage.join(', ')}`;
}

runBench(async () => {
  const pg = await startPostgresCluster({ durable: false });
  const nats = await startNatsServer();
  const nc = await connect({ servers: nats.url });
  try {
    await (await nc.jetstreamManager()).streams.add({ name: 'BENCH', subjects: ['bench.>'], duplicate_window: 120_000_000_000 });
    const dataSource = await new DataSource({ type: 'postgres', url: await createDatabase(pg.adminUrl, 'outbox_bench'), schema: SCHEMA, entities: [outboxEntity(SCHEMA)] }).initialize();
    await dataSource.query(`CREATE SCHEMA "${SCHEMA}"`);
    await dataSource.driver.createSchemaBuilder().build();
    const relay = new OutboxRelay(dataSource, new JetStreamPublisher(nc), { schema: SCHEMA, pollMs: 600_000, batchSize: BATCH });
    console.log(`bench:outbox: ${MESSAGES} messages a round, batches of ${BATCH}; "load generator" is this process (the relay or the bare publisher)`);
    const ratios: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const bare = await bareRound(nc, `bare${round}`);
      const relayed = await relayRound(dataSource, relay, `relay${round}`);
      ratios.push(bare.ms / relayed.ms);
      console.log(`round ${round + 1}\n  ${line('published from memory', bare)}\n  ${line('outbox relay', relayed)}\n  relay / bare: ${(bare.ms / relayed.ms).toFixed(2)}`);
    }
    console.log(`\nrelay throughput / bare publishing, median of ${ROUNDS}: ${median(ratios).toFixed(2)}`);
    await dataSource.destroy();
  } finally {
    await nc.close();
    await nats.stop();
    await pg.stop();
  }
});
