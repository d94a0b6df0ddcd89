import type { DataSource } from 'typeorm';
import type { BucketPolicy, BucketState } from './token-bucket';

// One statement takes up to $4 tokens: the row lock orders concurrent requests of one bucket, whichever
// gateway instance they reach. The bucket refills by the time since its last take (never backwards: a
// request whose transaction started earlier may commit later), up to its capacity; a refused request
// takes nothing. SET expressions all read the row as it was, so `allowed`, `granted` and `tokens` agree.
// full_at (when the bucket is full again) lets housekeeping drop exactly the buckets that are full.
const TAKE_TOKENS = `
INSERT INTO "identity"."rate_limit_buckets" AS b ("bucket_key", "tokens", "refilled_at", "allowed", "granted", "full_at")
VALUES ($1, $2::float8 - ${grant('$2::float8')}, now(), true, ${grant('$2::float8')}, now() + make_interval(secs => ${grant('$2::float8')} / $3::float8))
ON CONFLICT ("bucket_key") DO UPDATE SET
  "tokens" = ${level('b')} - ${grant(level('b'))},
  "allowed" = ${level('b')} >= 1,
  "granted" = ${grant(level('b'))},
  "refilled_at" = GREATEST(b."refilled_at", now()),
  "full_at" = now() + make_interval(secs => ($2::float8 - ${level('b')} + ${grant(level('b'))}) / $3::float8)
RETURNING "tokens", "allowed", "granted"`;

function level(row: string): string {
  return `LEAST($2::float8, ${row}."tokens" + GREATEST(0, EXTRACT(EPOCH FROM (now() - ${row}."refilled_at"))) * $3::float8)`;
}

// Whole tokens taken from a bucket at this level: up to $4, none below one.
function grant(tokens: string): string {
  return `(CASE WHEN ${tokens} >= 1 THEN LEAST($4::float8, FLOOR(${tokens})) ELSE 0 END)`;
}

export interface TakenTokens extends BucketState {
  granted: number;
}

// The token buckets, in PostgreSQL so every gateway instance shares them (decision 0022).
export class RateLimitBuckets {
  constructor(private readonly dataSource: DataSource) {}

  // `tokens` is what the bucket holds after the take; `granted` how many were taken (0 when refused).
  async take(bucketKey: string, policy: BucketPolicy, count = 1): Promise<TakenTokens> {
    const rows: { tokens: number; allowed: boolean; granted: number }[] = await this.dataSource.query(TAKE_TOKENS, [bucketKey, policy.capacity, policy.refillPerSecond, count]);
    return { allowed: rows[0].allowed, tokens: Number(rows[0].tokens), granted: Number(rows[0].granted) };
  }

  // A full bucket is the same as no bucket: dropping it loses nothing.
  async deleteFull(now: Date): Promise<number> {
    const result: [unknown[], number] = await this.dataSource.query(`DELETE FROM "identity"."rate_limit_buckets" WHERE "full_at" < $1`, [now]);
    return result[1];
  }
}
