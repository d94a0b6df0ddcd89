import { ADVISORY_LOCKS, withAdvisoryLock } from '@vj/database';
import type { DataSource } from 'typeorm';
import { IDENTITY_SCHEMA } from './identity-schema';

// The migrations table lives inside the schema, so the schema must exist before TypeORM looks for it.
// The lock serialises migrations when several gateway instances (or the CLI) start at once.
export async function runIdentityMigrations(dataSource: DataSource): Promise<string[]> {
  return withAdvisoryLock(dataSource, ADVISORY_LOCKS.identityMigrations, async () => {
    await dataSource.query(`CREATE SCHEMA IF NOT EXISTS "${IDENTITY_SCHEMA}"`);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((migration) => migration.name);
  });
}
