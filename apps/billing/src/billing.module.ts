import { Module, type DynamicModule } from '@nestjs/common';
import { isDatabaseOutage } from '@vj/database';
import { JetStreamConsumers, JetStreamConsumersLifecycle, JetStreamPublisher, NATS_CONNECTION } from '@vj/messaging';
import { OutboxRelay, OutboxRelayLifecycle } from '@vj/outbox';
import type { NatsConnection } from 'nats';
import { DataSource } from 'typeorm';
import { BILLING_SCHEMA } from './database/billing-schema';
import { JobBillingService } from './job-billing/job-billing.service';
import { JobBillingStore } from './job-billing/job-billing.store';
import { jobEventDeadLetters, jobEventHandlers } from './job-events/job-event-handlers';
import { JOB_EVENTS_CONSUMER } from './job-events/job-events-consumer';
import { PriceCatalog } from './pricing/price-catalog';
import { AccountReports } from './reports/account-reports';
import { BillingRpcLifecycle } from './rpc/billing-rpc.lifecycle';

export interface BillingModuleDeps {
  nc: NatsConnection;
  // Initialized and migrated.
  dataSource: DataSource;
  prices: PriceCatalog;
}

// The relay is nudged by every commit that writes an event; the poll catches rows another instance left.
const OUTBOX_POLL_MS = 500;

// What the boot made before the app exists (the connections, the price catalogue) is given as values;
// everything else is made by Nest from what it needs.
@Module({})
export class BillingModule {
  static create({ nc, dataSource, prices }: BillingModuleDeps): DynamicModule {
    return {
      module: BillingModule,
      providers: [
        { provide: NATS_CONNECTION, useValue: nc },
        { provide: DataSource, useValue: dataSource },
        { provide: PriceCatalog, useValue: prices },
        {
          provide: OutboxRelay,
          // The relay publishes rows many requests wrote: no ambient request context (their payloads name their job).
          useFactory: (connection: NatsConnection, database: DataSource) => new OutboxRelay(database, new JetStreamPublisher(connection), { schema: BILLING_SCHEMA, pollMs: OUTBOX_POLL_MS }),
          inject: [NATS_CONNECTION, DataSource],
        },
        { provide: JobBillingStore, useFactory: (database: DataSource, relay: OutboxRelay) => new JobBillingStore(database, () => relay.nudge()), inject: [DataSource, OutboxRelay] },
        { provide: JobBillingService, useFactory: (store: JobBillingStore, catalog: PriceCatalog) => new JobBillingService(store, catalog), inject: [JobBillingStore, PriceCatalog] },
        { provide: AccountReports, useFactory: (database: DataSource) => new AccountReports(database), inject: [DataSource] },
        { provide: OutboxRelayLifecycle, useFactory: (relay: OutboxRelay) => new OutboxRelayLifecycle(relay), inject: [OutboxRelay] },
        {
          provide: BillingRpcLifecycle,
          useFactory: (connection: NatsConnection, database: DataSource, catalog: PriceCatalog, reports: AccountReports, jobBilling: JobBillingService) =>
            new BillingRpcLifecycle(connection, database, catalog, reports, jobBilling),
          inject: [NATS_CONNECTION, DataSource, PriceCatalog, AccountReports, JobBillingService],
        },
        {
          provide: JetStreamConsumersLifecycle,
          useFactory: (connection: NatsConnection, jobBilling: JobBillingService) =>
            new JetStreamConsumersLifecycle(
              new JetStreamConsumers({
                connection,
                consumers: [JOB_EVENTS_CONSUMER],
                handlers: jobEventHandlers(jobBilling),
                deadLetterHandlers: jobEventDeadLetters,
                isOutage: isDatabaseOutage,
              }),
            ),
          inject: [NATS_CONNECTION, JobBillingService],
        },
      ],
    };
  }
}
