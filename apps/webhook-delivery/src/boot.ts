import { JobEventsConsumer } from '@vj/job-events';
import { jetStreamCollector, type OpsServer } from '@vj/observability';
import { bootDatabaseService, type RunningNatsService } from '@vj/service-boot';
import { createWebhooksDataSource } from './database/webhooks-data-source';
import { runWebhooksMigrations } from './database/run-webhooks-migrations';
import { JOB_UPDATES_CONSUMER } from './intake/job-progress-intake';
import { deliveryBacklogCollector } from './metrics/delivery-metrics';
import { WebhookDeliveryModule } from './webhook-delivery.module';
import type { WebhooksConfig } from './webhooks.env';

export type RunningWebhookDelivery = RunningNatsService;

// Starts the module (webhook-delivery.module.ts): the consumers read, the loop delivers, the RPC
// answers; a stop lets events in hand finish and a round in progress record its attempts. With
// `ops`, /readyz checks its database and NATS, and /metrics reports its backlog and consumers.
export function bootWebhookDelivery(config: WebhooksConfig, ops?: OpsServer): Promise<RunningWebhookDelivery> {
  return bootDatabaseService(
    {
      name: 'webhook-delivery',
      config,
      database: { create: createWebhooksDataSource, migrate: runWebhooksMigrations },
      module: ({ nc, dataSource }) => WebhookDeliveryModule.create({ config, nc, dataSource }),
      observe: (server, { dataSource, app, jsm }) => {
        server.addCollector('deliveries', deliveryBacklogCollector(dataSource), 15_000);
        server.addCollector('jetstream', jetStreamCollector(jsm, { consumers: [app.get(JobEventsConsumer).spec, JOB_UPDATES_CONSUMER] }));
      },
      readyLine: () => `ready: consuming job events, delivering (retry schedule ${config.WEBHOOK_RETRY_SCHEDULE})`,
    },
    ops,
  );
}
