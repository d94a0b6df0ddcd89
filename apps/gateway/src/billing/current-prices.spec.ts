import type { PriceListV1 } from '@vj/contracts';
import { BillingServiceError, type BillingPort } from './billing-port';
import { CurrentPrices } from './current-prices';

const list = (version: number): PriceListV1 => ({
  version,
  prices: {
    'clean-audio-video': { credits_per_second: 1, option_multipliers: {}, minimum_credits: 5, max_duration_seconds: 1800 },
    'video-background-removal': { credits_per_second: 2, option_multipliers: {}, minimum_credits: 10, max_duration_seconds: 60 },
  },
});

const TTL_MS = 300;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// A billing that answers the next version on each call, or fails while unreachable.
function billing() {
  const state = { calls: 0, reachable: true };
  const port = {
    priceList: async () => {
      if (!state.reachable) throw new BillingServiceError('unavailable', 'no responders');
      await new Promise((resolve) => setTimeout(resolve, 5));
      return list(++state.calls);
    },
  } as unknown as BillingPort;
  return { state, port };
}

describe('CurrentPrices', () => {
  it('asks billing once per time-to-live, one fetch shared by concurrent quotes', async () => {
    const { state, port } = billing();
    const prices = new CurrentPrices(port, TTL_MS);
    const first = await Promise.all([prices.current(), prices.current(), prices.current()]);
    expect(first.map((l) => l.version)).toEqual([1, 1, 1]);
    expect((await prices.current()).version).toBe(1);
    await sleep(TTL_MS + 20);
    expect((await prices.current()).version).toBe(2);
    expect(state.calls).toBe(2);
  });

  it('never quotes from an expired list: billing unreachable past the time-to-live fails the quote', async () => {
    const { state, port } = billing();
    const prices = new CurrentPrices(port, TTL_MS);
    await prices.current();
    state.reachable = false;
    expect((await prices.current()).version).toBe(1);
    await sleep(TTL_MS + 20);
    await expect(prices.current()).rejects.toMatchObject({ code: 'unavailable' });
    state.reachable = true;
    expect((await prices.current()).version).toBe(2);
  });

  it('asks billing for every quote with a time-to-live of 0', async () => {
    const { state, port } = billing();
    const prices = new CurrentPrices(port, 0);
    await prices.current();
    await prices.current();
    expect(state.calls).toBe(2);
  });
});
