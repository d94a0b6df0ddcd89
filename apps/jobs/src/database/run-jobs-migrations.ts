import { ADVISORY_LOCKS, withAdvisoryLock } from '@vj/database';
import type { DataSource } from 'typeorm';
import { JOBS_SCHEMA } from './jobs-schema';

// The migrations table lives inside the schema, so the schema must exist before TypeORM looks for it.
// The lock serialises migrations when several jobs instances boot at once.
export async function runJobsMigrations(dataSource: DataSource): Promise<string[]> {
  return withAdvisoryLock(dataSource, ADVISORY_LOCKS.jobsMigrations, async () => {
    await dataSource.query(`CREATE SCHEMA IF NOT EXISTS "${JOBS_SCHEMA}"`);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((migration) => migration.name);
  });
}
