import { createDatabase } from '@vj/local-stack';
import { randomUUID } from 'node:crypto';
import { createJobsDataSource } from './jobs-data-source';
import { runJobsMigrations } from './run-jobs-migrations';

describe('jobs schema', () => {
  it('matches the entities exactly once the migrations ran on a fresh database', async () => {
    const url = await createDatabase(process.env.TEST_DATABASE_ADMIN_URL!, 'jobs_schema_drift');
    const dataSource = await createJobsDataSource(url).initialize();
    try {
      expect(await runJobsMigrations(dataSource)).toEqual(['CreateJobs1732300000000', 'JobFunding1732400000000', 'ProcessingCap1732500000000', 'Retention1732600000000', 'FailedAttempts1732700000000', 'OutboxClaims1732800000000', 'JobsOutboxContext1732900000000', 'CreateJobFunction1733000000000', 'JobPieces1733100000000']);
      const pending = await dataSource.driver.createSchemaBuilder().log();
      expect(pending.upQueries.map((q) => q.query)).toEqual([]);
      expect(await runJobsMigrations(dataSource)).toEqual([]);
    } finally {
      await dataSource.destroy();
    }
  });

  it('marks jobs created before the billing saga as funded: their work message already went out', async () => {
    const url = await createDatabase(process.env.TEST_DATABASE_ADMIN_URL!, 'jobs_funding_migration');
    const dataSource = await createJobsDataSource(url).initialize();
    try {
      const applied = await runJobsMigrations(dataSource);
      // Back to the schema before JobFunding: undo it and every migration after it.
      for (let i = applied.indexOf('JobFunding1732400000000'); i < applied.length; i++) await dataSource.undoLastMigration({ transaction: 'each' });
      const jobId = randomUUID();
      await dataSource.query(
        `INSERT INTO jobs.job (job_id, account_id, job_type, status, input, options, created_at, updated_at, deadline_at)
         VALUES ($1, $2, 'clean-audio-video', 'PROCESSING', '{}', '{}', '2025-01-01T00:00:00.123Z', now(), now())`,
        [jobId, randomUUID()],
      );
      expect(await runJobsMigrations(dataSource)).toEqual(['JobFunding1732400000000', 'ProcessingCap1732500000000', 'Retention1732600000000', 'FailedAttempts1732700000000', 'OutboxClaims1732800000000', 'JobsOutboxContext1732900000000', 'CreateJobFunction1733000000000', 'JobPieces1733100000000']);
      const [row] = await dataSource.query('SELECT funded_at, estimate FROM jobs.job WHERE job_id = $1', [jobId]);
      expect(row).toEqual({ funded_at: new Date('2025-01-01T00:00:00.123Z'), estimate: null });
    } finally {
      await dataSource.destroy();
    }
  });
});
