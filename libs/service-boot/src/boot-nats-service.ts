import { Logger, type DynamicModule, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { logLevelsUpTo } from '@vj/config';
import type { ServiceName } from '@vj/contracts';
import { connectNats, ensureStreams, serveHealth } from '@vj/messaging';
import type { OpsServer, ReadinessCheck } from '@vj/observability';
import type { JetStreamManager, NatsConnection } from 'nats';

export interface NatsServiceSpec {
  // Its log context, its NATS connection's name and the subject its health is asked on.
  name: ServiceName;
  config: { NATS_URL: string; LOG_LEVEL: string };
  // The service's module, made once NATS is connected and the streams exist; its lifecycles start
  // with it and stop with it, before the connection closes.
  module(nc: NatsConnection): DynamicModule | Promise<DynamicModule>;
  // What /readyz checks beside the start and NATS (the database, S3).
  dependencies?: Record<string, ReadinessCheck>;
  // What health over NATS asks beside the start and the connection (the database answers).
  healthy?(): Promise<boolean>;
  // What /metrics reports beside the process's defaults.
  observe?(ops: OpsServer, parts: { nc: NatsConnection; app: INestApplicationContext; jsm: JetStreamManager }): void;
  // The log line that says it is ready, and with what.
  readyLine(app: INestApplicationContext): string;
  // Run when it stops, once unready and before the module's ordered stop (the worker hands back its
  // running jobs).
  beforeStop?(app: INestApplicationContext, reason: string): void | Promise<void>;
}

export interface RunningNatsService {
  app: INestApplicationContext;
  // Unready at once, then beforeStop, then the module's ordered stop (consumers and loops finish),
  // then the connections close. `reason`: why, for what is handed back.
  stop(reason?: string): Promise<void>;
}

// The one bootstrap of the services that talk over NATS (jobs, billing, webhook delivery, the render
// worker; bootDatabaseService for those with a database): NATS and the streams, the Nest application
// context, health over NATS and, with `ops`, /readyz (started, NATS, the dependencies) and the
// service's collectors.
export async function bootNatsService(spec: NatsServiceSpec, ops?: OpsServer): Promise<RunningNatsService> {
  const { name, config } = spec;
  const nc = await connectNats({ url: config.NATS_URL, name });
  let app: INestApplicationContext | undefined;
  let ready = false;
  try {
    await ensureStreams(nc);
    app = await NestFactory.createApplicationContext(await spec.module(nc), { logger: logLevelsUpTo(config.LOG_LEVEL) });
    if (ops) {
      ops.setReadiness({ started: () => ready, nats: () => nc.flush().then(() => true), ...spec.dependencies });
      spec.observe?.(ops, { nc, app, jsm: await nc.jetstreamManager() });
    }
  } catch (error) {
    // What was opened is closed before the failure goes on (the process exits, a test boots again).
    await app?.close();
    if (!nc.isClosed()) await nc.close();
    throw error;
  }
  const started = app;
  const health = serveHealth(nc, name, async () => ready && !nc.isClosed() && (spec.healthy ? await spec.healthy() : true));
  ready = true;
  new Logger(name).log(spec.readyLine(started));
  return {
    app: started,
    async stop(reason = `${name} stopping`) {
      ready = false;
      health.unsubscribe();
      await spec.beforeStop?.(started, reason);
      await started.close();
      // Made here, closed here: last, once nothing of the module publishes or reads.
      if (!nc.isClosed()) await nc.drain();
    },
  };
}
