import { ADVISORY_LOCKS, withAdvisoryLock } from '@vj/database';
import type { DataSource } from 'typeorm';
import { BILLING_SCHEMA } from './billing-schema';

// The migrations table lives inside the schema, so the schema must exist before TypeORM looks for it.
// The lock serialises migrations when several billing instances boot at once.
export async function runBillingMigrations(dataSource: DataSource): Promise<string[]> {
  return withAdvisoryLock(dataSource, ADVISORY_LOCKS.billingMigrations, async () => {
    await dataSource.query(`CREATE SCHEMA IF NOT EXISTS "${BILLING_SCHEMA}"`);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((migration) => migration.name);
  });
}
