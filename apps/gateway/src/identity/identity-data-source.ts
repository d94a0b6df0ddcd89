import { DataSource } from 'typeorm';
import { AccountEntity } from './account.entity';
import { ApiKeyEntity } from './api-key.entity';
import { IDENTITY_SCHEMA } from './identity-schema';
import { CreateIdentity1732250000000 } from './migrations/1732250000000-create-identity';

export const IDENTITY_ENTITIES = [AccountEntity, ApiKeyEntity];

// Migrations only: the schema changes through reviewed migrations, never through synchronize.
export function createIdentityDataSource(databaseUrl: string): DataSource {
  return new DataSource({
    type: 'postgres',
    url: databaseUrl,
    schema: IDENTITY_SCHEMA,
    entities: IDENTITY_ENTITIES,
    migrations: [CreateIdentity1732250000000],
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    applicationName: 'vj-gateway',
  });
}
