import { jetStreamCollector, outboxCollector, type OpsServer } from '@vj/observability';
import { bootDatabaseService, type RunningNatsService } from '@vj/service-boot';
import type { BillingConfig } from './billing.env';
import { BillingModule } from './billing.module';
import { BILLING_SCHEMA } from './database/billing-schema';
import { createBillingDataSource } from './database/billing-data-source';
import { runBillingMigrations } from './database/run-billing-migrations';
import { JOB_EVENTS_CONSUMER } from './job-events/job-events-consumer';
import { ledgerCollector } from './metrics/ledger-metrics';
import { configuredPrices } from './pricing/configured-prices';
import { PriceCatalog } from './pricing/price-catalog';

export type RunningBilling = RunningNatsService;

// With `ops`, /readyz checks its database and NATS, and /metrics reports its outbox, ledger and consumer.
export async function bootBilling(config: BillingConfig, ops?: OpsServer): Promise<RunningBilling> {
  // A bad price file stops the boot before anything connects; the catalogue is opened once migrated.
  const configured = await configuredPrices(config.BILLING_PRICES_FILE);
  return bootDatabaseService(
    {
      name: 'billing',
      config,
      database: { create: createBillingDataSource, migrate: runBillingMigrations },
      module: async ({ nc, dataSource }) => BillingModule.create({ nc, dataSource, prices: await PriceCatalog.open(dataSource, configured) }),
      observe: (server, { dataSource, jsm }) => {
        server.addCollector('outbox', outboxCollector(dataSource, BILLING_SCHEMA));
        server.addCollector('ledger', ledgerCollector(dataSource), 15_000);
        server.addCollector('jetstream', jetStreamCollector(jsm, { consumers: [JOB_EVENTS_CONSUMER] }));
      },
      readyLine: (app) => `ready: price list version ${app.get(PriceCatalog).current().version}, consuming job events`,
    },
    ops,
  );
}
