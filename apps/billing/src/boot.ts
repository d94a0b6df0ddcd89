import { answersQueries } from '@vj/database';
import { Logger, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { logLevelsUpTo } from '@vj/config';
import { connectNats, ensureStreams, serveHealth } from '@vj/messaging';
import { jetStreamCollector, outboxCollector, type OpsServer } from '@vj/observability';
import type { BillingConfig } from './billing.env';
import { BILLING_SCHEMA } from './database/billing-schema';
import { ledgerCollector } from './metrics/ledger-metrics';
import { BillingModule } from './billing.module';
import { createBillingDataSource } from './database/billing-data-source';
import { runBillingMigrations } from './database/run-billing-migrations';
import { JOB_EVENTS_CONSUMER } from './job-events/job-events-consumer';
import { configuredPrices } from './pricing/configured-prices';
import { PriceCatalog } from './pricing/price-catalog';

export interface RunningBilling {
  app: INestApplicationContext;
  stop(): Promise<void>;
}

// With `ops`, /readyz checks its database and NATS, and /metrics reports its outbox, ledger and consumer.
export async function bootBilling(config: BillingConfig, ops?: OpsServer): Promise<RunningBilling> {
  const logger = new Logger('billing');
  const configured = await configuredPrices(config.BILLING_PRICES_FILE);
  const dataSource = await createBillingDataSource(config.DATABASE_URL).initialize();
  await runBillingMigrations(dataSource);
  const prices = await PriceCatalog.open(dataSource, configured);
  const nc = await connectNats({ url: config.NATS_URL, name: 'billing' });
  await ensureStreams(nc);
  // Made and started: its consumer pulls once every provider is ready (JetStreamConsumersLifecycle).
  const app = await NestFactory.createApplicationContext(BillingModule.create({ nc, dataSource, prices }), { logger: logLevelsUpTo(config.LOG_LEVEL) });
  let ready = false;
  const health = serveHealth(nc, 'billing', async () => ready && !nc.isClosed() && (await answersQueries(dataSource)));
  if (ops) {
    ops.setReadiness({ started: () => ready, nats: () => nc.flush().then(() => true), database: () => answersQueries(dataSource) });
    ops.addCollector('outbox', outboxCollector(dataSource, BILLING_SCHEMA));
    ops.addCollector('ledger', ledgerCollector(dataSource), 15_000);
    ops.addCollector('jetstream', jetStreamCollector(await nc.jetstreamManager(), { consumers: [JOB_EVENTS_CONSUMER] }));
  }
  ready = true;
  logger.log(`ready: price list version ${prices.current().version}, consuming job events`);
  return {
    app,
    async stop() {
      ready = false;
      // Running handlers finish (JetStreamConsumers.close waits for them); unsettled events are redelivered.
      await app.close();
      health.unsubscribe();
      await nc.drain();
      await dataSource.destroy();
    },
  };
}
