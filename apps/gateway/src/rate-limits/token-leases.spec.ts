import type { RateLimitBuckets, TakenTokens } from './rate-limit-buckets';
import { LEASE_MS, leaseSize, TokenLeases } from './token-leases';

// One shared bucket in memory, refilled by the fake clock, counting the takes that reach it.
function sharedBucket(capacity: number, refillPerSecond: number) {
  const clock = { now: 0 };
  let tokens = capacity;
  let refilledAt = 0;
  const takes: number[] = [];
  const buckets = {
    async take(_key: string, _policy: unknown, count: number): Promise<TakenTokens> {
      takes.push(count);
      tokens = Math.min(capacity, tokens + ((clock.now - refilledAt) / 1000) * refillPerSecond);
      refilledAt = clock.now;
      const granted = tokens >= 1 ? Math.min(count, Math.floor(tokens)) : 0;
      tokens -= granted;
      return { allowed: granted > 0, tokens, granted };
    },
  } as unknown as RateLimitBuckets;
  return { clock, takes, leases: new TokenLeases(buckets, () => clock.now), policy: { capacity, refillPerSecond } };
}

describe('TokenLeases', () => {
  it('takes a tenth of a big bucket at once, at most a second of its refill, and one token of a small one', () => {
    expect(leaseSize({ capacity: 100, refillPerSecond: 50 })).toBe(10);
    expect(leaseSize({ capacity: 100, refillPerSecond: 3 })).toBe(3);
    expect(leaseSize({ capacity: 5, refillPerSecond: 1 })).toBe(1);
  });

  it('answers a burst of a busy key with one shared take per lease, and refuses exactly past the bucket', async () => {
    const { leases, takes, policy } = sharedBucket(100, 50);
    const answers = await Promise.all(Array.from({ length: 105 }, () => leases.take('k', policy)));
    expect(answers.filter((answer) => answer.allowed)).toHaveLength(100);
    expect(takes.filter((count) => count === 10).length).toBeLessThanOrEqual(11);
    // Remaining counts down across leases as it did one token at a time.
    expect(answers.slice(0, 3).map((answer) => Math.floor(answer.tokens))).toEqual([99, 98, 97]);
  });

  it('keeps a refusal until the next token refills, then takes again', async () => {
    const { leases, takes, clock, policy } = sharedBucket(1, 1);
    expect((await leases.take('k', policy)).allowed).toBe(true);
    expect((await leases.take('k', policy)).allowed).toBe(false);
    const takesWhenRefused = takes.length;
    clock.now = 500;
    const refused = await leases.take('k', policy);
    expect(refused).toEqual({ allowed: false, tokens: 0.5 });
    expect(takes.length).toBe(takesWhenRefused);
    clock.now = 1_000;
    expect((await leases.take('k', policy)).allowed).toBe(true);
  });

  it('lets unused leased tokens lapse after LEASE_MS: a limit only gets stricter', async () => {
    const { leases, takes, clock, policy } = sharedBucket(100, 50);
    await leases.take('k', policy);
    clock.now = LEASE_MS;
    await leases.take('k', policy);
    expect(takes).toEqual([10, 10]);
  });
});
