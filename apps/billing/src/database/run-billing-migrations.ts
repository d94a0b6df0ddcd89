import type { DataSource } from 'typeorm';
import { BILLING_SCHEMA } from './billing-schema';

// Arbitrary constant: serialises migrations when several billing instances boot at once.
const MIGRATION_LOCK = 73_100_003;

// The migrations table lives inside the schema, so the schema must exist before TypeORM looks for it.
export async function runBillingMigrations(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await runner.query(`CREATE SCHEMA IF NOT EXISTS "${BILLING_SCHEMA}"`);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((migration) => migration.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await runner.release();
  }
}
