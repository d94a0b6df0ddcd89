import { isDatabaseOutage } from '@vj/database';
import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { serveBillingRpc, type RpcService } from '@vj/messaging';
import type { NatsConnection } from 'nats';
import type { DataSource } from 'typeorm';
import { grantCredits } from '../ledger/grant-credits';
import type { PriceCatalog } from '../pricing/price-catalog';
import type { AccountReports } from '../reports/account-reports';
import type { JobBillingService } from '../job-billing/job-billing.service';

// Serves vj.rpc.billing.v1.* (price_list, balance, usage, ledger, grant, extend_hold) once the app is up.
export class BillingRpcLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private service: RpcService | undefined;

  constructor(
    private readonly nc: NatsConnection,
    private readonly dataSource: DataSource,
    private readonly prices: PriceCatalog,
    private readonly reports: AccountReports,
    private readonly jobBilling: JobBillingService,
  ) {}

  onApplicationBootstrap(): void {
    this.service = serveBillingRpc(this.nc, {
      price_list: async () => this.prices.current(),
      balance: (request) => this.reports.balance(request.account_id),
      usage: (request) => this.reports.usage(request),
      ledger: (request) => this.reports.ledger(request),
      grant: (request) => grantCredits(this.dataSource, request),
      extend_hold: (request) => this.jobBilling.extendHold(request),
    }, { isOutage: isDatabaseOutage });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.service?.close();
  }
}
