import 'reflect-metadata';
import { defineEnv, databaseEnv } from '@vj/config';
import { createWebhooksDataSource } from './database/webhooks-data-source';
import { runWebhooksMigrations } from './database/run-webhooks-migrations';

// `npm start` runs this before the services; the service also migrates at boot.
async function migrate(): Promise<void> {
  const { DATABASE_URL } = defineEnv(databaseEnv).parse(process.env);
  const dataSource = await createWebhooksDataSource(DATABASE_URL).initialize();
  try {
    const applied = await runWebhooksMigrations(dataSource);
    console.log(JSON.stringify({ service: 'webhook-delivery', migrations_applied: applied }));
  } finally {
    await dataSource.destroy();
  }
}

migrate().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
