import type { INestMicroservice, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { connectNats, ensureStreams, JetStreamServer } from '@vj/messaging';
import { createJobsDataSource } from '../database/jobs-data-source';
import { runJobsMigrations } from '../database/run-jobs-migrations';
import type { JobsConfig } from '../jobs.env';
import { REPORTS_CONSUMER, RENDER_WORKER_DEAD_LETTERS } from '../reports/reports-consumer';
import { JobsModule } from './jobs.module';

const LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

// Everything at or above LOG_LEVEL ("log" shows fatal..log).
function logLevels(level: string): LogLevel[] {
  const index = LEVELS.indexOf(level as LogLevel);
  return LEVELS.slice(0, index < 0 ? LEVELS.indexOf('log') + 1 : index + 1);
}

// Connects, migrates and wires the jobs service; main.ts and the integration tests both boot it this way.
export async function createJobsApp(config: JobsConfig): Promise<INestMicroservice> {
  const dataSource = await createJobsDataSource(config.DATABASE_URL).initialize();
  await runJobsMigrations(dataSource);
  const nc = await connectNats({ url: config.NATS_URL, name: 'jobs' });
  await ensureStreams(await nc.jetstreamManager());
  const app = await NestFactory.createMicroservice(JobsModule.create({ config, nc, dataSource }), {
    strategy: new JetStreamServer({ connection: nc, consumers: [REPORTS_CONSUMER], deadLetterWatches: [RENDER_WORKER_DEAD_LETTERS] }),
    logger: logLevels(config.LOG_LEVEL),
  });
  app.enableShutdownHooks(['SIGTERM', 'SIGINT']);
  return app;
}
