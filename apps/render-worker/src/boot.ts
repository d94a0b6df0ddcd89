import { mkdir } from 'node:fs/promises';
import { jetStreamCollector, type OpsServer } from '@vj/observability';
import { bootNatsService, type RunningNatsService } from '@vj/service-boot';
import { ObjectStorage, storageConfig } from '@vj/storage';
import { WarmNodeProcesses } from './media';
import { loadMattingModels } from './matting/load-matting-models';
import { Sha256DenyListPolicy } from './moderation/sha256-deny-list-policy';
import { CancellationRegistry } from './processing/cancellation-registry';
import type { RenderWorkerConfig } from './render-worker.env';
import { RenderWorkerModule } from './render-worker.module';
import { workConsumer } from './work-consumer';

// Its stop abandons running jobs (their messages are redelivered elsewhere), then closes everything.
export type RunningWorker = RunningNatsService;

// With `ops`, /readyz checks NATS and S3 once the worker pulls work, and /metrics reports the work
// consumer's lag next to the processing metrics.
export async function bootRenderWorker(config: RenderWorkerConfig, ops?: OpsServer): Promise<RunningWorker> {
  // Each job makes its scratch folder inside WORK_DIR: the folder itself must exist.
  await mkdir(config.WORK_DIR, { recursive: true });
  const storage = new ObjectStorage(storageConfig(config));
  await storage.ensureBucket();
  const moderation = await Sha256DenyListPolicy.fromFile(config.MODERATION_DENY_SHA256_FILE);
  const models = await loadMattingModels({
    cacheDir: config.MATTING_MODEL_CACHE_DIR,
    modelsFile: config.MATTING_MODELS_FILE,
    executionProviders: config.ONNX_EXECUTION_PROVIDERS.split(',').map((name) => name.trim()).filter(Boolean),
    intraOpThreads: config.ONNX_INTRA_OP_THREADS,
  });
  return bootNatsService(
    {
      name: 'render-worker',
      config,
      // Made and started: the work consumer pulls once every provider is ready (JetStreamConsumersLifecycle).
      module: (nc) => RenderWorkerModule.register({ config, nc, storage, moderation, models }),
      dependencies: { s3: () => storage.ping() },
      observe: (server, { jsm }) => server.addCollector('jetstream', jetStreamCollector(jsm, { consumers: [workConsumer(config)] })),
      readyLine: () => `ready: ${config.WORKER_CONCURRENCY} job(s) at a time; matting models: ${models.describe()}`,
      // Long renders cannot finish within a stop timeout: their messages are nak'ed and run elsewhere.
      beforeStop: (app, reason) => {
        app.get(CancellationRegistry).abandonAll(reason);
        app.get(WarmNodeProcesses).close();
      },
    },
    ops,
  );
}
