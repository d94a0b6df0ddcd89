import 'reflect-metadata';
import { defineEnv, databaseEnv } from '@vj/config';
import { createBillingDataSource } from './database/billing-data-source';
import { runBillingMigrations } from './database/run-billing-migrations';

// `npm start` runs this before the services; the service also migrates at boot.
async function migrate(): Promise<void> {
  const { DATABASE_URL } = defineEnv(databaseEnv).parse(process.env);
  const dataSource = await createBillingDataSource(DATABASE_URL).initialize();
  try {
    const applied = await runBillingMigrations(dataSource);
    console.log(JSON.stringify({ service: 'billing', migrations_applied: applied }));
  } finally {
    await dataSource.destroy();
  }
}

migrate().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
