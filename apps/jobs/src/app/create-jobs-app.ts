import { answersQueries, isDatabaseOutage } from '@vj/database';
import type { INestMicroservice } from '@nestjs/common';
import { CONSUMERS, STREAMS } from '@vj/contracts';
import { jetStreamCollector, outboxCollector, type OpsServer } from '@vj/observability';
import type { JetStreamManager, NatsConnection } from 'nats';
import type { DataSource } from 'typeorm';
import { JOBS_SCHEMA } from '../database/jobs-schema';
import { logLevelsUpTo } from '@vj/config';
import { NestFactory } from '@nestjs/core';
import { connectNats, ensureStreams, JetStreamServer } from '@vj/messaging';
import { BILLING_EVENTS_CONSUMER } from '../billing-events/billing-events-consumer';
import { createJobsDataSource } from '../database/jobs-data-source';
import { runJobsMigrations } from '../database/run-jobs-migrations';
import type { JobsConfig } from '../jobs.env';
import { REPORTS_CONSUMER, RENDER_WORKER_DEAD_LETTERS } from '../reports/reports-consumer';
import { JobsModule } from './jobs.module';

// Connects, migrates and wires the jobs service; main.ts and the integration tests both boot it this way.
// With `ops`, /readyz checks its database and NATS, and /metrics reports its outbox and JetStream.
export async function createJobsApp(config: JobsConfig, ops?: OpsServer): Promise<INestMicroservice> {
  const dataSource = await createJobsDataSource(config.DATABASE_URL).initialize();
  await runJobsMigrations(dataSource);
  const nc = await connectNats({ url: config.NATS_URL, name: 'jobs' });
  await ensureStreams(nc);
  if (ops) observeJobs(ops, nc, await nc.jetstreamManager(), dataSource);
  const app = await NestFactory.createMicroservice(JobsModule.create({ config, nc, dataSource }), {
    // One server pulls both durable consumers; each subject is dispatched to its controller's handler.
    strategy: new JetStreamServer({ connection: nc, consumers: [REPORTS_CONSUMER, BILLING_EVENTS_CONSUMER], deadLetterWatches: [RENDER_WORKER_DEAD_LETTERS], isOutage: isDatabaseOutage }),
    logger: logLevelsUpTo(config.LOG_LEVEL),
  });
  return app;
}

// Any one service may report the streams' depth and the dead letters (its NATS user reads every stream's
// info); the jobs service does, with its own consumers' lag. Billing and the workers report theirs.
function observeJobs(ops: OpsServer, nc: NatsConnection, jsm: JetStreamManager, dataSource: DataSource): void {
  ops.setReadiness({ nats: () => nc.flush().then(() => true), database: () => answersQueries(dataSource) });
  ops.addCollector('outbox', outboxCollector(dataSource, JOBS_SCHEMA));
  ops.addCollector(
    'jetstream',
    jetStreamCollector(jsm, {
      consumers: [REPORTS_CONSUMER, BILLING_EVENTS_CONSUMER],
      streams: Object.values(STREAMS),
      deadLetters: { stream: STREAMS.deadLetters, consumers: Object.values(CONSUMERS) },
    }),
  );
}
