import 'reflect-metadata';
import { tracing } from './tracing';
import { DEFAULT_METRICS_PORTS } from '@vj/config';
import { runService } from '@vj/observability';
import { bootRenderWorker } from './boot';
import { renderWorkerEnv } from './render-worker.env';

runService({
  name: 'render-worker',
  config: (env) => renderWorkerEnv.parse(env),
  tracing,
  defaultMetricsPort: DEFAULT_METRICS_PORTS['render-worker'],
  // The ops server is up before the model conversion: /readyz says the worker is not ready meanwhile.
  start: async (config, ops) => {
    const worker = await bootRenderWorker(config, ops);
    // Long renders cannot finish within a stop timeout: running jobs are handed back for redelivery.
    return { stop: (signal) => worker.stop(`worker stopping (${signal})`) };
  },
});
