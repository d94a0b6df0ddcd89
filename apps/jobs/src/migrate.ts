import 'reflect-metadata';
import { defineEnv, databaseEnv } from '@vj/config';
import { createJobsDataSource } from './database/jobs-data-source';
import { runJobsMigrations } from './database/run-jobs-migrations';

// `npm start` runs this before the services; the service also migrates at boot.
async function migrate(): Promise<void> {
  const { DATABASE_URL } = defineEnv(databaseEnv).parse(process.env);
  const dataSource = await createJobsDataSource(DATABASE_URL).initialize();
  try {
    const applied = await runJobsMigrations(dataSource);
    console.log(JSON.stringify({ service: 'jobs', migrations_applied: applied }));
  } finally {
    await dataSource.destroy();
  }
}

migrate().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
