import { mkdir } from 'node:fs/promises';
import { Logger, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { connectNats, ensureStreams, serveHealth, serveMediaRpc } from '@vj/messaging';
import { ObjectStorage, storageConfig } from '@vj/storage';
import { logLevelsUpTo } from '@vj/config';
import { jetStreamCollector, type OpsServer } from '@vj/observability';
import { DurationProbe } from './estimate/duration-probe';
import { WarmNodeProcesses } from './media';
import { loadMattingModels } from './matting/load-matting-models';
import { Sha256DenyListPolicy } from './moderation/sha256-deny-list-policy';
import { CancellationRegistry } from './processing/cancellation-registry';
import type { RenderWorkerConfig } from './render-worker.env';
import { RenderWorkerModule } from './render-worker.module';
import { workConsumer } from './work-consumer';

export interface RunningWorker {
  app: INestApplicationContext;
  // Abandons running jobs (their messages are redelivered elsewhere), then closes everything.
  stop(reason: string): Promise<void>;
}

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
  const nc = await connectNats({ url: config.NATS_URL, name: 'render-worker' });
  await ensureStreams(nc);

  // Made and started: the work consumer pulls once every provider is ready (JetStreamConsumersLifecycle).
  const app = await NestFactory.createApplicationContext(RenderWorkerModule.register({ config, nc, storage, moderation, models }), { logger: logLevelsUpTo(config.LOG_LEVEL) });
  let ready = false;
  const health = serveHealth(nc, 'render-worker', () => ready && !nc.isClosed());
  if (ops) {
    ops.setReadiness({ started: () => ready, nats: () => nc.flush().then(() => true), s3: () => storage.ping() });
    ops.addCollector('jetstream', jetStreamCollector(await nc.jetstreamManager(), { consumers: [workConsumer(config)] }));
  }
  // Any one worker of the queue group answers the gateway's duration question for a quote.
  const durationProbe = app.get(DurationProbe);
  const mediaRpc = serveMediaRpc(nc, { probe: (request) => durationProbe.reply(request) });
  ready = true;
  new Logger('render-worker').log(`ready: ${config.WORKER_CONCURRENCY} job(s) at a time; matting models: ${models.describe()}`);

  return {
    app,
    async stop(reason) {
      ready = false;
      await mediaRpc.close();
      // Long renders cannot finish within a stop timeout: their messages are nak'ed and run elsewhere.
      app.get(CancellationRegistry).abandonAll(reason);
      app.get(WarmNodeProcesses).close();
      await app.close();
      health.unsubscribe();
      await nc.drain();
    },
  };
}
