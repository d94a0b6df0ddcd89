import { CONNECTION_LIMITS } from '@vj/database';
import { DataSource } from 'typeorm';
import { AccountEntity } from './account.entity';
import { ApiKeyEntity } from './api-key.entity';
import { IDENTITY_SCHEMA } from './identity-schema';
import { CreateIdentity1732250000000 } from './migrations/1732250000000-create-identity';
import { KeysLimitsUploads1732500000000 } from './migrations/1732500000000-keys-limits-uploads';
import { IdentityChangesUploadDurations1732600000000 } from './migrations/1732600000000-identity-changes-upload-durations';
import { MultipartUploads1733600000000 } from './migrations/1733600000000-multipart-uploads';
import { RateLimitBucketEntity } from './rate-limit-bucket.entity';
import { UploadEntity } from './upload.entity';

// The gateway's schema: accounts and their keys and limits, the rate-limit buckets, the uploads.
export const IDENTITY_ENTITIES = [AccountEntity, ApiKeyEntity, RateLimitBucketEntity, UploadEntity];

// Migrations only: the schema changes through reviewed migrations, never through synchronize.
export function createIdentityDataSource(databaseUrl: string): DataSource {
  return new DataSource({
    type: 'postgres',
    url: databaseUrl,
    schema: IDENTITY_SCHEMA,
    entities: IDENTITY_ENTITIES,
    migrations: [CreateIdentity1732250000000, KeysLimitsUploads1732500000000, IdentityChangesUploadDurations1732600000000, MultipartUploads1733600000000],
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    applicationName: 'vj-gateway',
    ...CONNECTION_LIMITS,
  });
}
