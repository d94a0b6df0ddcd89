import { createDatabase } from '@vj/local-stack';
import { createWebhooksDataSource } from './webhooks-data-source';
import { runWebhooksMigrations } from './run-webhooks-migrations';

describe('webhooks schema', () => {
  it('matches the entities exactly once the migrations ran on a fresh database', async () => {
    const url = await createDatabase(process.env.TEST_DATABASE_ADMIN_URL!, 'webhooks_schema_drift');
    const dataSource = await createWebhooksDataSource(url).initialize();
    try {
      expect(await runWebhooksMigrations(dataSource)).toEqual(['CreateWebhooks1733000000000', 'AccountSecrets1733100000000']);
      const pending = await dataSource.driver.createSchemaBuilder().log();
      expect(pending.upQueries.map((q) => q.query)).toEqual([]);
      expect(await runWebhooksMigrations(dataSource)).toEqual([]);
    } finally {
      await dataSource.destroy();
    }
  });
});
