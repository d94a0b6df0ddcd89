import type { DataSource } from 'typeorm';
import { JOBS_SCHEMA } from './jobs-schema';

// Arbitrary constant: serialises migrations when several jobs instances boot at once.
const MIGRATION_LOCK = 73_100_001;

// The migrations table lives inside the schema, so the schema must exist before TypeORM looks for it.
export async function runJobsMigrations(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await runner.query(`CREATE SCHEMA IF NOT EXISTS "${JOBS_SCHEMA}"`);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((migration) => migration.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await runner.release();
  }
}
