import { createDatabase } from '@vj/local-stack';
import { createJobsDataSource } from './jobs-data-source';
import { runJobsMigrations } from './run-jobs-migrations';

describe('jobs schema', () => {
  it('matches the entities exactly once the migrations ran on a fresh database', async () => {
    const url = await createDatabase(process.env.TEST_DATABASE_ADMIN_URL!, 'jobs_schema_drift');
    const dataSource = await createJobsDataSource(url).initialize();
    try {
      expect(await runJobsMigrations(dataSource)).toEqual(['CreateJobs1732300000000']);
      const pending = await dataSource.driver.createSchemaBuilder().log();
      expect(pending.upQueries.map((q) => q.query)).toEqual([]);
      expect(await runJobsMigrations(dataSource)).toEqual([]);
    } finally {
      await dataSource.destroy();
    }
  });
});
