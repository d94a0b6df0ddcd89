import { CONNECTION_LIMITS } from '@vj/database';
import { DataSource } from 'typeorm';
import { AccountSecretEntity } from './account-secret.entity';
import { CreateWebhooks1733000000000 } from './migrations/1733000000000-create-webhooks';
import { AccountSecrets1733100000000 } from './migrations/1733100000000-account-secrets';
import { WebhookAttemptEntity } from './webhook-attempt.entity';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';
import { WEBHOOKS_SCHEMA } from './webhooks-schema';

export const WEBHOOKS_ENTITIES = [WebhookEndpointEntity, WebhookDeliveryEntity, WebhookAttemptEntity, AccountSecretEntity];

// Migrations only: the schema changes through reviewed migrations, never through synchronize.
export function createWebhooksDataSource(databaseUrl: string): DataSource {
  return new DataSource({
    type: 'postgres',
    url: databaseUrl,
    schema: WEBHOOKS_SCHEMA,
    entities: WEBHOOKS_ENTITIES,
    migrations: [CreateWebhooks1733000000000, AccountSecrets1733100000000],
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    applicationName: 'vj-webhooks',
    ...CONNECTION_LIMITS,
  });
}
