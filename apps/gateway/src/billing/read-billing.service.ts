import { Inject, Injectable } from '@nestjs/common';
import type { BalanceV1, UsageReportV1 } from '@vj/contracts';
import { LIST_LIMIT_DEFAULT, type PageQuery } from '@vj/http-contracts';
import { BILLING_PORT, type BillingPort } from './billing-port';
import { renderBalance, renderLedgerPage, type LedgerPageBody } from './billing-bodies';
import type { UsageQuery } from './usage.query';
import { usageRange } from './usage-range';

// The account's own billing records, read from the billing service; every call is scoped to the caller.
@Injectable()
export class ReadBillingService {
  constructor(@Inject(BILLING_PORT) private readonly billing: BillingPort) {}

  async balance(accountId: string): Promise<BalanceV1> {
    return renderBalance(await this.billing.balance({ version: 1, account_id: accountId }));
  }

  // Billing's report as it came: the controller renders it as JSON or CSV.
  usage(accountId: string, query: UsageQuery, now = new Date()): Promise<UsageReportV1> {
    const { from, to } = usageRange(query, now);
    return this.billing.usage({ version: 1, account_id: accountId, from: from.toISOString(), to: to.toISOString(), group_by: query.group_by ?? 'day' });
  }

  async ledger(accountId: string, query: PageQuery): Promise<LedgerPageBody> {
    const page = await this.billing.ledger({
      version: 1,
      account_id: accountId,
      limit: query.limit ?? LIST_LIMIT_DEFAULT,
      ...(query.cursor && { cursor: query.cursor }),
    });
    return renderLedgerPage(page);
  }
}
