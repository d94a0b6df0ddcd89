import 'reflect-metadata';
import { tracing } from './tracing';
import { Logger } from '@nestjs/common';
import { DEFAULT_METRICS_PORTS } from '@vj/config';
import { setupLogging, startOpsServer, stopOnSignals } from '@vj/observability';
import { createGatewayApp } from './app/create-gateway-app';
import { gatewayEnv } from './gateway.env';
import { HealthService } from './health/health.service';
import { applyHttpTimeouts } from './http/http-timeouts';

async function main(): Promise<void> {
  const config = gatewayEnv.parse(process.env);
  setupLogging('gateway', { level: config.LOG_LEVEL, format: config.LOG_FORMAT });
  // Its own port: /metrics is for Prometheus, not for the API's clients.
  const ops = await startOpsServer({ port: config.METRICS_PORT ?? DEFAULT_METRICS_PORTS.gateway, fallbackToFreePort: true });
  const app = await createGatewayApp(config);
  ops.setReadiness(app.get(HealthService).readinessChecks());
  // SIGTERM/SIGINT: stop accepting requests, then close NATS and the database (GatewayResources).
  stopOnSignals('gateway', { stop: () => app.close(), ops, tracing });
  applyHttpTimeouts(app.getHttpServer(), config);
  await app.listen(config.PORT);
  new Logger('Gateway').log(`listening on http://localhost:${config.PORT} (API docs at /docs; metrics on port ${ops.port}${tracing.enabled ? '; traces exported' : ''})`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
