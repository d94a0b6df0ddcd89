import { Logger, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { logLevelsUpTo } from '@vj/config';
import { answersQueries } from '@vj/database';
import { JobEventsConsumer } from '@vj/job-events';
import { connectNats, ensureStreams, serveHealth } from '@vj/messaging';
import { jetStreamCollector, type OpsServer } from '@vj/observability';
import { createWebhooksDataSource } from './database/webhooks-data-source';
import { runWebhooksMigrations } from './database/run-webhooks-migrations';
import { JOB_UPDATES_CONSUMER } from './intake/job-progress-intake';
import { deliveryBacklogCollector } from './metrics/delivery-metrics';
import { WebhookDeliveryModule } from './webhook-delivery.module';
import type { WebhooksConfig } from './webhooks.env';

export interface RunningWebhookDelivery {
  app: INestApplicationContext;
  stop(): Promise<void>;
}

// Connects, migrates, then starts the module (webhook-delivery.module.ts); with `ops`, /readyz checks
// its database and NATS, and /metrics reports its backlog and consumers.
export async function bootWebhookDelivery(config: WebhooksConfig, ops?: OpsServer): Promise<RunningWebhookDelivery> {
  const logger = new Logger('webhook-delivery');
  const dataSource = await createWebhooksDataSource(config.DATABASE_URL).initialize();
  await runWebhooksMigrations(dataSource);
  const nc = await connectNats({ url: config.NATS_URL, name: 'webhook-delivery' });
  await ensureStreams(nc);
  // Creating the context starts its lifecycles: the consumers read, the loop delivers, the RPC answers.
  const app = await NestFactory.createApplicationContext(WebhookDeliveryModule.create({ config, nc, dataSource }), { logger: logLevelsUpTo(config.LOG_LEVEL) });

  let ready = false;
  const health = serveHealth(nc, 'webhook-delivery', async () => ready && !nc.isClosed() && (await answersQueries(dataSource)));
  if (ops) {
    ops.setReadiness({ started: () => ready, nats: () => nc.flush().then(() => true), database: () => answersQueries(dataSource) });
    ops.addCollector('deliveries', deliveryBacklogCollector(dataSource), 15_000);
    ops.addCollector('jetstream', jetStreamCollector(await nc.jetstreamManager(), { consumers: [app.get(JobEventsConsumer).spec, JOB_UPDATES_CONSUMER] }));
  }
  ready = true;
  logger.log(`ready: consuming job events, delivering (retry schedule ${config.WEBHOOK_RETRY_SCHEDULE})`);
  return {
    app,
    async stop() {
      ready = false;
      health.unsubscribe();
      // Events in hand finish and are acknowledged, a round in progress records its attempts, then
      // NATS and the database close (the module's lifecycles).
      await app.close();
    },
  };
}
