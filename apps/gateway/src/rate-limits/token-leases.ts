import { LRUCache } from 'lru-cache';
import type { RateLimitBuckets } from './rate-limit-buckets';
import type { BucketPolicy, BucketState } from './token-bucket';

// How long tokens taken ahead for a key stay usable by this instance; unused ones are then lost, which
// only ever makes a limit stricter.
export const LEASE_MS = 1_000;

interface Lease {
  // Tokens this instance may still hand out without asking the shared bucket.
  left: number;
  // What the shared bucket held after the take.
  tokens: number;
  takenAt: number;
  expiresAt: number;
  refused: boolean;
}

// A busy key takes a tenth of its bucket (at most a second's refill) from the shared bucket in one
// statement and spends it here; a small bucket takes one token at a time, exactly as a shared bucket
// does. A refusal is kept until the bucket refills its next token: no take could find one before.
export function leaseSize(policy: BucketPolicy): number {
  return Math.max(1, Math.min(Math.floor(policy.capacity / 10), Math.floor((policy.refillPerSecond * LEASE_MS) / 1000)));
}

// The shared token buckets (decision 0022) with one statement per lease instead of one per request
// (decision 0036). Concurrent requests of one key share one take.
export class TokenLeases {
  private readonly leases = new LRUCache<string, Lease>({ max: 10_000 });
  private readonly takes = new Map<string, Promise<void>>();

  constructor(
    private readonly buckets: RateLimitBuckets,
    private readonly now: () => number = Date.now,
  ) {}

  async take(bucketKey: string, policy: BucketPolicy): Promise<BucketState> {
    for (;;) {
      const spent = this.spend(bucketKey, policy);
      if (spent) return spent;
      let pending = this.takes.get(bucketKey);
      if (!pending) {
        pending = this.lease(bucketKey, policy).finally(() => this.takes.delete(bucketKey));
        this.takes.set(bucketKey, pending);
      }
      await pending;
    }
  }

  private spend(bucketKey: string, policy: BucketPolicy): BucketState | null {
    const lease = this.leases.get(bucketKey);
    const now = this.now();
    if (!lease || now >= lease.expiresAt) return null;
    if (lease.refused) return { allowed: false, tokens: lease.tokens + ((now - lease.takenAt) / 1000) * policy.refillPerSecond };
    if (lease.left < 1) return null;
    lease.left--;
    return { allowed: true, tokens: lease.tokens + lease.left };
  }

  private async lease(bucketKey: string, policy: BucketPolicy): Promise<void> {
    const taken = await this.buckets.take(bucketKey, policy, leaseSize(policy));
    const now = this.now();
    const untilNextToken = Math.max(0, ((1 - Math.max(0, taken.tokens)) / policy.refillPerSecond) * 1000);
    this.leases.set(bucketKey, {
      left: taken.granted,
      tokens: taken.tokens,
      takenAt: now,
      expiresAt: now + (taken.allowed ? LEASE_MS : untilNextToken),
      refused: !taken.allowed,
    });
  }
}
