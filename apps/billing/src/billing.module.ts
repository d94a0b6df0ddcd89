import { Module, type DynamicModule } from '@nestjs/common';
import { JetStreamPublisher } from '@vj/messaging';
import type { NatsConnection } from 'nats';
import type { DataSource } from 'typeorm';
import { OutboxRelay, OutboxRelayLifecycle } from '@vj/outbox';
import { BILLING_SCHEMA } from './database/billing-schema';
import { JobBillingService } from './job-billing/job-billing.service';
import { JobBillingStore } from './job-billing/job-billing.store';
import { JobEventsController } from './job-events/job-events.controller';
import type { PriceCatalog } from './pricing/price-catalog';
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

@Module({})
export class BillingModule {
  static create({ nc, dataSource, prices }: BillingModuleDeps): DynamicModule {
    // The relay publishes rows many requests wrote: no ambient request context (their payloads name their job).
    const relay = new OutboxRelay(dataSource, new JetStreamPublisher(nc), { schema: BILLING_SCHEMA, pollMs: OUTBOX_POLL_MS });
    const jobBilling = new JobBillingService(new JobBillingStore(dataSource, () => relay.nudge()), prices);
    return {
      module: BillingModule,
      controllers: [JobEventsController],
      providers: [
        { provide: JobBillingService, useValue: jobBilling },
        { provide: OutboxRelayLifecycle, useValue: new OutboxRelayLifecycle(relay) },
        { provide: BillingRpcLifecycle, useValue: new BillingRpcLifecycle(nc, dataSource, prices, new AccountReports(dataSource), jobBilling) },
      ],
    };
  }
}
