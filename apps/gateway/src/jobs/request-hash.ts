import { createHash } from 'node:crypto';
import type { JobType } from '@vj/contracts';

// JSON with object keys sorted at every depth, so the same body hashes the same whatever the key order.
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

// Fingerprint of a create for Idempotency-Key: same key + another hash is a conflict. The job type is
// part of it, so a key reused on the other create endpoint is a conflict, not a replay of the other job;
// an export's scope names its source job too.
export function requestHash(scope: JobType | `${JobType} export of ${string}`, body: unknown): string {
  return createHash('sha256').update(`${scope}\n${canonicalJson(body)}`).digest('hex');
}
