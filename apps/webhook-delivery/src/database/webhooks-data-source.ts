import { DataSource } from 'typeorm';
import { CreateWebhooks1733000000000 } from './migrations/1733000000000-create-webhooks';
import { WebhookAttemptEntity } from './webhook-attempt.entity';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';
import { WEBHOOKS_SCHEMA } from './webhooks-schema';

export const WEBHOOKS_ENTITIES = [WebhookEndpointEntity, WebhookDeliveryEntity, WebhookAttemptEntity];

// Migrations only: the schema changes through reviewed migrations, never through synchronize.
export function createWebhooksDataSource(databaseUrl: string): DataSource {
  return new DataSource({
    type: 'postgres',
    url: databaseUrl,
    schema: WEBHOOKS_SCHEMA,
    entities: WEBHOOKS_ENTITIES,
    migrations: [CreateWebhooks1733000000000],
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    applicationName: 'vj-webhooks',
  });
}
