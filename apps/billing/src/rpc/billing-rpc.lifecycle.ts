import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { isJobType, type CreditEstimateV1, type EstimateRequestV1 } from '@vj/contracts';
import { RpcError, serveBillingRpc, type RpcService } from '@vj/messaging';
import type { NatsConnection } from 'nats';
import type { DataSource } from 'typeorm';
import { grantCredits } from '../ledger/grant-credits';
import type { PriceCatalog } from '../pricing/price-catalog';
import { quote } from '../pricing/quote';
import type { AccountReports } from '../reports/account-reports';
import type { JobBillingService } from '../job-billing/job-billing.service';

// Serves vj.rpc.billing.v1.* (estimate, balance, usage, ledger, grant, extend_hold) once the app is up.
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
      estimate: async (request) => this.estimate(request),
      balance: (request) => this.reports.balance(request.account_id),
      usage: (request) => this.reports.usage(request),
      ledger: (request) => this.reports.ledger(request),
      grant: (request) => grantCredits(this.dataSource, request),
      extend_hold: (request) => this.jobBilling.extendHold(request),
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.service?.close();
  }

  private estimate(request: EstimateRequestV1): CreditEstimateV1 {
    if (!isJobType(request.job_type)) throw new RpcError('invalid_request', `unknown job type ${String(request.job_type)}`);
    const duration = request.duration_seconds;
    if (duration !== null && (typeof duration !== 'number' || !Number.isFinite(duration) || duration < 0)) {
      throw new RpcError('invalid_request', 'duration_seconds must be a number >= 0 or null');
    }
    return quote(this.prices.current(), request.job_type, request.options, duration);
  }
}
