import type { INestMicroservice } from '@nestjs/common';
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
export async function createJobsApp(config: JobsConfig): Promise<INestMicroservice> {
  const dataSource = await createJobsDataSource(config.DATABASE_URL).initialize();
  await runJobsMigrations(dataSource);
  const nc = await connectNats({ url: config.NATS_URL, name: 'jobs' });
  await ensureStreams(await nc.jetstreamManager());
  const app = await NestFactory.createMicroservice(JobsModule.create({ config, nc, dataSource }), {
    // One server pulls both durable consumers; each subject is dispatched to its controller's handler.
    strategy: new JetStreamServer({ connection: nc, consumers: [REPORTS_CONSUMER, BILLING_EVENTS_CONSUMER], deadLetterWatches: [RENDER_WORKER_DEAD_LETTERS] }),
    logger: logLevelsUpTo(config.LOG_LEVEL),
  });
  app.enableShutdownHooks(['SIGTERM', 'SIGINT']);
  return app;
}
