import { DataSource } from 'typeorm';
import { IdempotencyKeyEntity } from './idempotency-key.entity';
import { JobEntity } from './job.entity';
import { JOBS_SCHEMA } from './jobs-schema';
import { CreateJobs1732300000000 } from './migrations/1732300000000-create-jobs';
import { JobFunding1732400000000 } from './migrations/1732400000000-job-funding';
import { OutboxMessageEntity } from './outbox-message.entity';

export const JOBS_ENTITIES = [JobEntity, IdempotencyKeyEntity, OutboxMessageEntity];

// Migrations only: the schema changes through reviewed migrations, never through synchronize.
export function createJobsDataSource(databaseUrl: string): DataSource {
  return new DataSource({
    type: 'postgres',
    url: databaseUrl,
    schema: JOBS_SCHEMA,
    entities: JOBS_ENTITIES,
    migrations: [CreateJobs1732300000000, JobFunding1732400000000],
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    applicationName: 'vj-jobs',
  });
}
