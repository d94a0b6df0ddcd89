import type { DataSource } from 'typeorm';
import type { BucketPolicy, BucketState } from './token-bucket';

// One statement takes a token: the row lock orders concurrent requests of one bucket, whichever gateway
// instance they reach. The bucket refills by the time since its last take (never backwards: a request
// whose transaction started earlier may commit later), up to its capacity; a refused request takes
// nothing. SET expressions all read the row as it was, so `allowed` and `tokens` agree.
// full_at (when the bucket is full again) lets housekeeping drop exactly the buckets that are full.
const TAKE_TOKEN = `
INSERT INTO "identity"."rate_limit_buckets" AS b ("bucket_key", "tokens", "refilled_at", "allowed", "full_at")
VALUES ($1, $2::float8 - 1, now(), true, now() + make_interval(secs => 1 / $3::float8))
ON CONFLICT ("bucket_key") DO UPDATE SET
  "tokens" = ${taken('b')},
  "allowed" = ${level('b')} >= 1,
  "refilled_at" = GREATEST(b."refilled_at", now()),
  "full_at" = now() + make_interval(secs => ($2::float8 - ${taken('b')}) / $3::float8)
RETURNING "tokens", "allowed"`;

function level(row: string): string {
  return `LEAST($2::float8, ${row}."tokens" + GREATEST(0, EXTRACT(EPOCH FROM (now() - ${row}."refilled_at"))) * $3::float8)`;
}

function taken(row: string): string {
  return `(CASE WHEN ${level(row)} >= 1 THEN ${level(row)} - 1 ELSE ${level(row)} END)`;
}

// The token buckets, in PostgreSQL so every gateway instance shares them (decision 0022).
export class RateLimitBuckets {
  constructor(private readonly dataSource: DataSource) {}

  async take(bucketKey: string, policy: BucketPolicy): Promise<BucketState> {
    const rows: { tokens: number; allowed: boolean }[] = await this.dataSource.query(TAKE_TOKEN, [bucketKey, policy.capacity, policy.refillPerSecond]);
    return { allowed: rows[0].allowed, tokens: Number(rows[0].tokens) };
  }

  // A full bucket is the same as no bucket: dropping it loses nothing.
  async deleteFull(now: Date): Promise<number> {
    const result: [unknown[], number] = await this.dataSource.query(`DELETE FROM "identity"."rate_limit_buckets" WHERE "full_at" < $1`, [now]);
    return result[1];
  }
}
