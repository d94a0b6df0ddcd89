import type {
  BalanceRequestV1,
  BalanceV1,
  GrantCreditsReplyV1,
  GrantCreditsRequestV1,
  LedgerPageV1,
  LedgerRequestV1,
  PriceListRequestV1,
  PriceListV1,
  RpcErrorCode,
  UsageReportV1,
  UsageRequestV1,
} from '@vj/contracts';

// The gateway's view of the billing service (its NATS RPC catalogue, BillingRpc in contracts). Behind a
// port so the HTTP API and the CLI test against a fake; messaging/rpc-billing.adapter.ts binds it to NATS.
export interface BillingPort {
  priceList(request: PriceListRequestV1): Promise<PriceListV1>;
  balance(request: BalanceRequestV1): Promise<BalanceV1>;
  usage(request: UsageRequestV1): Promise<UsageReportV1>;
  ledger(request: LedgerRequestV1): Promise<LedgerPageV1>;
  grant(request: GrantCreditsRequestV1): Promise<GrantCreditsReplyV1>;
}

export const BILLING_PORT = Symbol('BillingPort');

export type BillingServiceErrorCode = RpcErrorCode | 'unavailable';

// What a BillingPort throws when billing refuses a call or cannot be reached; the error filter maps the
// code to an HTTP status.
export class BillingServiceError extends Error {
  constructor(
    readonly code: BillingServiceErrorCode,
    message: string,
  ) {
    super(message);
  }
}
