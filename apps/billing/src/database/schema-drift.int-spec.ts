import { createDatabase } from '@vj/local-stack';
import { createBillingDataSource } from './billing-data-source';
import { runBillingMigrations } from './run-billing-migrations';

describe('billing schema', () => {
  it('matches the entities exactly once the migrations ran on a fresh database', async () => {
    const url = await createDatabase(process.env.TEST_DATABASE_ADMIN_URL!, 'billing_schema_drift');
    const dataSource = await createBillingDataSource(url).initialize();
    try {
      expect(await runBillingMigrations(dataSource)).toEqual(['CreateBilling1732400000000', 'BillingOutbox1732800000000', 'BillingOutboxContext1732900000000']);
      const pending = await dataSource.driver.createSchemaBuilder().log();
      expect(pending.upQueries.map((q) => q.query)).toEqual([]);
      expect(await runBillingMigrations(dataSource)).toEqual([]);
    } finally {
      await dataSource.destroy();
    }
  });
});
