import 'reflect-metadata';
import { databaseEnv, defineEnv } from '@vj/config';
import { createIdentityDataSource } from './identity/identity-data-source';
import { runIdentityMigrations } from './identity/run-identity-migrations';

// `npm start` runs this before the services; the gateway also runs pending migrations at boot.
async function migrate(): Promise<void> {
  const { DATABASE_URL } = defineEnv(databaseEnv).parse(process.env);
  const dataSource = await createIdentityDataSource(DATABASE_URL).initialize();
  try {
    const applied = await runIdentityMigrations(dataSource);
    console.error(applied.length ? `identity: applied ${applied.join(', ')}` : 'identity: schema is up to date');
  } finally {
    await dataSource.destroy();
  }
}

migrate().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
