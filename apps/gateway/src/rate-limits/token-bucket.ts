// Token-bucket arithmetic, pure: a bucket holds up to `capacity` tokens and refills at `refillPerSecond`;
// a request takes one token or is refused. The store (rate-limit-buckets.ts) applies it atomically.

export interface BucketPolicy {
  capacity: number;
  refillPerSecond: number;
}

export interface BucketState {
  allowed: boolean;
  // Tokens left after this request (fractional while refilling).
  tokens: number;
}

export interface RateLimitHeaders {
  'RateLimit-Limit': string;
  'RateLimit-Remaining': string;
  'RateLimit-Reset': string;
}

// The headers of draft-ietf-httpapi-ratelimit-headers: the bucket's size, whole tokens left, and the
// seconds until it is full again.
export function rateLimitHeaders(policy: BucketPolicy, state: BucketState): RateLimitHeaders {
  const tokens = Math.max(0, Math.min(policy.capacity, state.tokens));
  return {
    'RateLimit-Limit': String(policy.capacity),
    'RateLimit-Remaining': String(Math.floor(tokens)),
    'RateLimit-Reset': String(Math.ceil((policy.capacity - tokens) / policy.refillPerSecond)),
  };
}

// Whole seconds until the next token, at least 1: what Retry-After says on a 429.
export function retryAfterSeconds(policy: BucketPolicy, state: BucketState): number {
  return Math.max(1, Math.ceil((1 - Math.max(0, state.tokens)) / policy.refillPerSecond));
}
