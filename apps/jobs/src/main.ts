import 'reflect-metadata';
import { tracing } from './tracing';
import { Logger } from '@nestjs/common';
import { DEFAULT_METRICS_PORTS } from '@vj/config';
import { setupLogging, startOpsServer, stopOnSignals } from '@vj/observability';
import { createJobsApp } from './app/create-jobs-app';
import { jobsEnv } from './jobs.env';

async function main(): Promise<void> {
  const config = jobsEnv.parse(process.env);
  setupLogging('jobs', { level: config.LOG_LEVEL, format: config.LOG_FORMAT });
  const ops = await startOpsServer({ port: config.METRICS_PORT ?? DEFAULT_METRICS_PORTS.jobs, fallbackToFreePort: true });
  const app = await createJobsApp(config, ops);
  // SIGTERM/SIGINT: the consumers stop pulling and let handlers finish, then NATS and the database close.
  stopOnSignals('jobs', { stop: () => app.close(), ops, tracing });
  new Logger('jobs').log(`ready; metrics on port ${ops.port}`);
}

main().catch((error: unknown) => {
  new Logger('jobs').fatal(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
