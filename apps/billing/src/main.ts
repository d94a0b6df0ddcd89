import 'reflect-metadata';
import { tracing } from './tracing';
import { Logger } from '@nestjs/common';
import { DEFAULT_METRICS_PORTS } from '@vj/config';
import { setupLogging, startOpsServer, stopOnSignals } from '@vj/observability';
import { billingEnv } from './billing.env';
import { bootBilling } from './boot';

async function main(): Promise<void> {
  const config = billingEnv.parse(process.env);
  setupLogging('billing', { level: config.LOG_LEVEL, format: config.LOG_FORMAT });
  const ops = await startOpsServer({ port: config.METRICS_PORT ?? DEFAULT_METRICS_PORTS.billing, fallbackToFreePort: true });
  const billing = await bootBilling(config, ops);
  stopOnSignals('billing', { stop: () => billing.stop(), ops, tracing });
}

main().catch((error: unknown) => {
  new Logger('billing').fatal(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
