import 'reflect-metadata';
import { tracing } from './tracing';
import { Logger } from '@nestjs/common';
import { DEFAULT_METRICS_PORTS } from '@vj/config';
import { setupLogging, startOpsServer, stopOnSignals } from '@vj/observability';
import { webhooksEnv } from './webhooks.env';
import { bootWebhookDelivery } from './boot';

async function main(): Promise<void> {
  const config = webhooksEnv.parse(process.env);
  setupLogging('webhook-delivery', { level: config.LOG_LEVEL, format: config.LOG_FORMAT });
  const ops = await startOpsServer({ port: config.METRICS_PORT ?? DEFAULT_METRICS_PORTS['webhook-delivery'], fallbackToFreePort: true });
  const service = await bootWebhookDelivery(config, ops);
  stopOnSignals('webhook-delivery', { stop: () => service.stop(), ops, tracing });
}

main().catch((error: unknown) => {
  new Logger('webhook-delivery').fatal(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
