import 'reflect-metadata';
import { tracing } from './tracing';
import { Logger } from '@nestjs/common';
import { DEFAULT_METRICS_PORTS } from '@vj/config';
import { setupLogging, startOpsServer, stopOnSignals } from '@vj/observability';
import { bootRenderWorker } from './boot';
import { renderWorkerEnv } from './render-worker.env';

async function main(): Promise<void> {
  const config = renderWorkerEnv.parse(process.env);
  setupLogging('render-worker', { level: config.LOG_LEVEL, format: config.LOG_FORMAT });
  // Up before the model conversion: /livez answers while the worker starts, /readyz says it is not ready.
  const ops = await startOpsServer({ port: config.METRICS_PORT ?? DEFAULT_METRICS_PORTS['render-worker'], fallbackToFreePort: true });
  const worker = await bootRenderWorker(config, ops);
  // Long renders cannot finish within a stop timeout: running jobs are handed back for redelivery.
  stopOnSignals('render-worker', { stop: (signal) => worker.stop(`worker stopping (${signal})`), ops, tracing });
}

main().catch((error: unknown) => {
  new Logger('render-worker').fatal(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
