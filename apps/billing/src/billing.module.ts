import { Module, type DynamicModule } from '@nestjs/common';
import { JetStreamPublisher } from '@vj/messaging';
import type { NatsConnection } from 'nats';
import type { DataSource } from 'typeorm';
import { JobBillingService } from './job-billing/job-billing.service';
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

@Module({})
export class BillingModule {
  static create({ nc, dataSource, prices }: BillingModuleDeps): DynamicModule {
    return {
      module: BillingModule,
      controllers: [JobEventsController],
      providers: [
        { provide: JobBillingService, useValue: new JobBillingService(dataSource, prices) },
        { provide: JetStreamPublisher, useValue: new JetStreamPublisher(nc) },
        { provide: BillingRpcLifecycle, useValue: new BillingRpcLifecycle(nc, dataSource, prices, new AccountReports(dataSource)) },
      ],
    };
  }
}
