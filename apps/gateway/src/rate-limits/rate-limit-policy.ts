import type { AccountLimitOverrides } from '../identity';
import type { BucketPolicy } from './token-bucket';

// Reads (GET) and everything that makes work or objects (creates, estimates, uploads, cancels) have
// separate buckets, so polling never eats the budget for creates and the other way round.
export type RequestClass = 'read' | 'write';

export interface RateLimitDefaults {
  RATE_LIMIT_READS_PER_SECOND: number;
  RATE_LIMIT_READ_BURST: number;
  RATE_LIMIT_WRITES_PER_SECOND: number;
  RATE_LIMIT_WRITE_BURST: number;
  RATE_LIMIT_UNAUTHENTICATED_PER_SECOND: number;
  RATE_LIMIT_UNAUTHENTICATED_BURST: number;
  ACCOUNT_MAX_PROCESSING_JOBS: number;
}

export function requestClassOf(method: string): RequestClass {
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write';
}

// The account's own limit where it has one, else the deployment's default.
export function keyPolicy(requestClass: RequestClass, limits: AccountLimitOverrides, defaults: RateLimitDefaults): BucketPolicy {
  return requestClass === 'read'
    ? { capacity: limits.read_burst ?? defaults.RATE_LIMIT_READ_BURST, refillPerSecond: limits.reads_per_second ?? defaults.RATE_LIMIT_READS_PER_SECOND }
    : { capacity: limits.write_burst ?? defaults.RATE_LIMIT_WRITE_BURST, refillPerSecond: limits.writes_per_second ?? defaults.RATE_LIMIT_WRITES_PER_SECOND };
}

// Requests without a valid key, per client address: they cost a key lookup each.
export function unauthenticatedPolicy(defaults: RateLimitDefaults): BucketPolicy {
  return { capacity: defaults.RATE_LIMIT_UNAUTHENTICATED_BURST, refillPerSecond: defaults.RATE_LIMIT_UNAUTHENTICATED_PER_SECOND };
}

export function maxProcessingJobs(limits: AccountLimitOverrides, defaults: RateLimitDefaults): number {
  return limits.max_processing_jobs ?? defaults.ACCOUNT_MAX_PROCESSING_JOBS;
}

export const bucketKeys = {
  apiKey: (requestClass: RequestClass, keyId: string) => `${requestClass}:key:${keyId}`,
  unauthenticated: (address: string) => `auth:ip:${address}`,
};
