import type { DataSource } from 'typeorm';

// PostgreSQL session advisory locks, one connection held for the duration: how N instances of a
// service agree that only one of them migrates at a time, or runs a sweep.

// Waits for the lock, runs `work`, releases it.
export async function withAdvisoryLock<T>(dataSource: DataSource, key: number, work: () => Promise<T>): Promise<T> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [key]);
    return await work();
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [key]).catch(() => undefined);
    await runner.release();
  }
}

// Runs `work` only if no other session holds the lock; null when another instance is at it.
export async function ifAdvisoryLockFree<T>(dataSource: DataSource, key: number, work: () => Promise<T>): Promise<T | null> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    const [{ locked }] = (await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [key])) as [{ locked: boolean }];
    if (!locked) return null;
    try {
      return await work();
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [key]).catch(() => undefined);
    }
  } finally {
    await runner.release();
  }
}

// The keys, one place, so no two uses collide.
export const ADVISORY_LOCKS = {
  identityMigrations: 73_100_000,
  jobsMigrations: 73_100_001,
  billingMigrations: 73_100_003,
  webhooksMigrations: 73_100_004,
  staleJobSweep: 73_100_010,
  retentionSweep: 73_100_011,
} as const;
