import { Inject, Injectable } from '@nestjs/common';
import type { PriceListV1 } from '@vj/contracts';
import { LRUCache } from 'lru-cache';
import { BILLING_PORT, type BillingPort } from './billing-port';

export const PRICE_LIST_TTL_MS = Symbol('PriceListTtlMs');

// Billing's current price list, fetched once per time-to-live and shared by every quote on this gateway
// (decision 0037): a create or an estimate prices its job here, with no trip to billing. Concurrent
// quotes after expiry share one fetch. A list is never served past its time-to-live, so billing
// unreachable for longer is a 503 as before; a new price version reaches quotes at most that late, and
// each job is charged with the version it was quoted with.
@Injectable()
export class CurrentPrices {
  private readonly cache: LRUCache<'current', PriceListV1> | null;

  constructor(
    @Inject(BILLING_PORT) private readonly billing: BillingPort,
    @Inject(PRICE_LIST_TTL_MS) ttlMs: number,
  ) {
    this.cache = ttlMs > 0 ? new LRUCache<'current', PriceListV1>({ max: 1, ttl: ttlMs, fetchMethod: () => this.fetch() }) : null;
  }

  async current(): Promise<PriceListV1> {
    if (!this.cache) return this.fetch();
    const list = await this.cache.fetch('current');
    if (!list) throw new Error('billing answered no price list');
    return list;
  }

  private fetch(): Promise<PriceListV1> {
    return this.billing.priceList({ version: 1 });
  }
}
