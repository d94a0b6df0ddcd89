import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { GATEWAY_CONFIG } from '../config/gateway-config.token';
import type { GatewayConfig } from '../gateway.env';
import { ApiError } from '../http/api-error';
import type { HttpResponse } from '../http/http-types';
import type { Principal } from '../identity';
import { bucketKeys, keyPolicy, requestClassOf, unauthenticatedPolicy } from './rate-limit-policy';
import { RateLimitBuckets } from './rate-limit-buckets';
import { rateLimitHeaders, retryAfterSeconds, type BucketPolicy } from './token-bucket';
import { TokenLeases } from './token-leases';

// Takes one token per request and writes the RateLimit-* headers on the answer, whatever it is; an
// empty bucket is 429 rate_limited with Retry-After.
@Injectable()
export class RateLimiter {
  // Addresses whose bucket for requests without a valid key is empty, until they may try again: refused
  // before their key is looked up. Per instance; the bucket itself is shared.
  private readonly blocked = new LRUCache<string, { until: number; limit: number }>({ max: 10_000 });
  private readonly leases: TokenLeases;

  constructor(
    buckets: RateLimitBuckets,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {
    this.leases = new TokenLeases(buckets);
  }

  forKey(principal: Principal, method: string, res: HttpResponse): Promise<void> {
    const requestClass = requestClassOf(method);
    return this.take(bucketKeys.apiKey(requestClass, principal.keyId), keyPolicy(requestClass, principal.limits, this.config), res, `${requestClass}s`);
  }

  async forUnauthenticated(address: string, res: HttpResponse): Promise<void> {
    const policy = unauthenticatedPolicy(this.config);
    try {
      await this.take(bucketKeys.unauthenticated(address), policy, res, 'requests without a valid API key');
    } catch (error) {
      if (error instanceof ApiError && error.retryAfterSeconds) this.blocked.set(address, { until: Date.now() + error.retryAfterSeconds * 1000, limit: policy.capacity });
      throw error;
    }
  }

  refuseIfBlocked(address: string, res: HttpResponse): void {
    const block = this.blocked.get(address);
    if (!block) return;
    const retryAfter = Math.ceil((block.until - Date.now()) / 1000);
    if (retryAfter <= 0) return void this.blocked.delete(address);
    res.setHeader('RateLimit-Limit', String(block.limit));
    res.setHeader('RateLimit-Remaining', '0');
    res.setHeader('RateLimit-Reset', String(retryAfter));
    throw ApiError.rateLimited(`too many requests without a valid API key from this address; retry in ${retryAfter} s`, retryAfter);
  }

  private async take(bucketKey: string, policy: BucketPolicy, res: HttpResponse, what: string): Promise<void> {
    if (this.config.RATE_LIMITS === 'off') return;
    const state = await this.leases.take(bucketKey, policy);
    for (const [name, value] of Object.entries(rateLimitHeaders(policy, state))) res.setHeader(name, value);
    if (state.allowed) return;
    const retryAfter = retryAfterSeconds(policy, state);
    throw ApiError.rateLimited(`too many ${what}: at most ${policy.capacity} at once and ${policy.refillPerSecond} per second; retry in ${retryAfter} s`, retryAfter);
  }
}
