import type {
  BalanceRequestV1,
  BalanceV1,
  GrantCreditsReplyV1,
  GrantCreditsRequestV1,
  LedgerEntryV1,
  LedgerPageV1,
  LedgerRequestV1,
  PriceListV1,
  UsageReportV1,
  UsageRequestV1,
  UsageRowV1,
} from '@vj/contracts';
import { BillingServiceError, type BillingPort } from '../src/billing/billing-port';

const FAKE_CREDITS_PER_SECOND = 2;
const FAKE_MAX_DURATION_SECONDS = 60;

const FAKE_PRICE = { credits_per_second: FAKE_CREDITS_PER_SECOND, option_multipliers: {}, minimum_credits: 0, max_duration_seconds: FAKE_MAX_DURATION_SECONDS };

// An in-memory billing service: a fixed price per second for every job type (the maximum duration
// when none is known), grants with idempotency keys, and usage rows and ledger entries the test sets.
export class FakeBillingPort implements BillingPort {
  // How many times the price list was asked for: a quote that reached billing.
  priceListCalls = 0;
  readonly usageRequests: UsageRequestV1[] = [];
  readonly ledgerRequests: LedgerRequestV1[] = [];
  reachable = true;
  usageRows: UsageRowV1[] = [];
  ledgerEntries: LedgerEntryV1[] = [];
  private readonly balances = new Map<string, number>();
  private readonly grants = new Set<string>();

  async priceList(): Promise<PriceListV1> {
    this.ensureReachable();
    this.priceListCalls++;
    return { version: 1, prices: { 'clean-audio-video': FAKE_PRICE, 'video-background-removal': FAKE_PRICE } };
  }

  async balance(request: BalanceRequestV1): Promise<BalanceV1> {
    this.ensureReachable();
    const balance = this.balances.get(request.account_id) ?? 0;
    return { account_id: request.account_id, balance, held: 0, available: balance };
  }

  async usage(request: UsageRequestV1): Promise<UsageReportV1> {
    this.ensureReachable();
    this.usageRequests.push(request);
    const sum = (field: 'jobs' | 'billed_seconds' | 'credits') => this.usageRows.reduce((total, row) => total + row[field], 0);
    return {
      account_id: request.account_id,
      from: request.from,
      to: request.to,
      group_by: request.group_by,
      rows: this.usageRows,
      totals: { jobs: sum('jobs'), billed_seconds: sum('billed_seconds'), credits: sum('credits') },
    };
  }

  async ledger(request: LedgerRequestV1): Promise<LedgerPageV1> {
    this.ensureReachable();
    this.ledgerRequests.push(request);
    const offset = request.cursor === undefined ? 0 : Number(Buffer.from(request.cursor, 'base64url').toString());
    if (!Number.isInteger(offset) || offset < 0) throw new BillingServiceError('invalid_request', 'cursor is not valid');
    const entries = this.ledgerEntries.slice(offset, offset + request.limit);
    const next = offset + request.limit < this.ledgerEntries.length ? Buffer.from(String(offset + request.limit)).toString('base64url') : null;
    return { entries, next_cursor: next };
  }

  async grant(request: GrantCreditsRequestV1): Promise<GrantCreditsReplyV1> {
    this.ensureReachable();
    const balance = (this.balances.get(request.account_id) ?? 0) + (this.grants.has(request.idempotency_key) ? 0 : request.amount);
    this.grants.add(request.idempotency_key);
    this.balances.set(request.account_id, balance);
    return { account_id: request.account_id, balance };
  }

  private ensureReachable(): void {
    if (!this.reachable) throw new BillingServiceError('unavailable', 'billing: no responders');
  }
}
