import { createDatabase } from '@vj/local-stack';
import type { DataSource } from 'typeorm';
import { createIdentityDataSource } from './identity-data-source';
import { runIdentityMigrations } from './run-identity-migrations';

describe('identity migrations', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    const url = await createDatabase(process.env.TEST_DATABASE_ADMIN_URL ?? '', 'gateway_identity_migrations');
    dataSource = await createIdentityDataSource(url).initialize();
  });

  afterAll(() => dataSource.destroy());

  it('creates the identity schema and its own migrations table on a fresh database', async () => {
    expect(await runIdentityMigrations(dataSource)).toEqual(['CreateIdentity1732250000000', 'KeysLimitsUploads1732500000000', 'IdentityChangesUploadDurations1732600000000', 'MultipartUploads1733600000000']);
    const tables = await dataSource.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'identity' ORDER BY table_name`);
    expect(tables.map((row: { table_name: string }) => row.table_name)).toEqual(['accounts', 'api_keys', 'migrations', 'rate_limit_buckets', 'uploads']);
  });

  it('leaves no difference between the entities and the migrated schema', async () => {
    const pending = await dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((query) => query.query)).toEqual([]);
  });

  it('applies nothing the second time', async () => {
    expect(await runIdentityMigrations(dataSource)).toEqual([]);
  });
});
