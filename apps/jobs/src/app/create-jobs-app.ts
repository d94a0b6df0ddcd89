import { answersQueries } from '@vj/database';
import type { INestApplicationContext } from '@nestjs/common';
import { CONSUMERS, STREAMS } from '@vj/contracts';
import { jetStreamCollector, outboxCollector, type OpsServer } from '@vj/observability';
import type { JetStreamManager, NatsConnection } from 'nats';
import type { DataSource } from 'typeorm';
import { JOBS_SCHEMA } from '../database/jobs-schema';
import { logLevelsUpTo } from '@vj/config';
import { NestFactory } from '@nestjs/core';
import { connectNats, ensureStreams } from '@vj/messaging';
import { BILLING_EVENTS_CONSUMER } from '../billing-events/billing-events-consumer';
import { createJobsDataSource } from '../database/jobs-data-source';
import { runJobsMigrations } from '../database/run-jobs-migrations';
import type { JobsConfig } from '../jobs.env';
import { REPORTS_CONSUMER } from '../reports/reports-consumer';
import { JobsModule } from './jobs.module';

// Connects, migrates, wires and starts the jobs service (its consumers pull once every provider is
// ready, JetStreamConsumersLifecycle); main.ts and the integration tests both boot it this way.
// With `ops`, /readyz checks its database and NATS, and /metrics reports its outbox and JetStream.
export async function createJobsApp(config: JobsConfig, ops?: OpsServer): Promise<INestApplicationContext> {
  const dataSource = await createJobsDataSource(config.DATABASE_URL).initialize();
  await runJobsMigrations(dataSource);
  const nc = await connectNats({ url: config.NATS_URL, name: 'jobs' });
  await ensureStreams(nc);
  if (ops) observeJobs(ops, nc, await nc.jetstreamManager(), dataSource);
  return NestFactory.createApplicationContext(JobsModule.create({ config, nc, dataSource }), { logger: logLevelsUpTo(config.LOG_LEVEL) });
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
