import 'reflect-metadata';
import { tracing } from './tracing';
import { Logger } from '@nestjs/common';
import { DEFAULT_METRICS_PORTS } from '@vj/config';
import { runService } from '@vj/observability';
import { createGatewayApp } from './app/create-gateway-app';
import { gatewayEnv } from './gateway.env';
import { HealthService } from './health/health.service';
import { applyHttpTimeouts } from './http/http-timeouts';

runService({
  name: 'gateway',
  config: (env) => gatewayEnv.parse(env),
  tracing,
  // Its own port: /metrics is for Prometheus, not for the API's clients.
  defaultMetricsPort: DEFAULT_METRICS_PORTS.gateway,
  start: async (config, ops) => {
    const app = await createGatewayApp(config);
    ops.setReadiness(app.get(HealthService).readinessChecks());
    applyHttpTimeouts(app.getHttpServer(), config);
    await app.listen(config.PORT);
    new Logger('Gateway').log(`listening on http://localhost:${config.PORT} (API docs at /docs; metrics on port ${ops.port}${tracing.enabled ? '; traces exported' : ''})`);
    // Stop accepting requests, then close NATS and the database (GatewayResources).
    return { stop: () => app.close() };
  },
});
