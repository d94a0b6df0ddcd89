import { ADVISORY_LOCKS, withAdvisoryLock } from '@vj/database';
import type { DataSource } from 'typeorm';
import { WEBHOOKS_SCHEMA } from './webhooks-schema';

// The migrations table lives inside the schema, so the schema must exist before TypeORM looks for it.
// The lock serialises migrations when several instances boot at once.
export async function runWebhooksMigrations(dataSource: DataSource): Promise<string[]> {
  return withAdvisoryLock(dataSource, ADVISORY_LOCKS.webhooksMigrations, async () => {
    await dataSource.query(`CREATE SCHEMA IF NOT EXISTS "${WEBHOOKS_SCHEMA}"`);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((migration) => migration.name);
  });
}
