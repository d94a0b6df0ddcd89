import { CONNECTION_LIMITS } from '@vj/database';
import { DataSource } from 'typeorm';
import { IdempotencyKeyEntity } from './idempotency-key.entity';
import { JobEntity } from './job.entity';
import { JOBS_SCHEMA } from './jobs-schema';
import { CreateJobs1732300000000 } from './migrations/1732300000000-create-jobs';
import { JobFunding1732400000000 } from './migrations/1732400000000-job-funding';
import { ProcessingCap1732500000000 } from './migrations/1732500000000-processing-cap';
import { Retention1732600000000 } from './migrations/1732600000000-retention';
import { FailedAttempts1732700000000 } from './migrations/1732700000000-failed-attempts';
import { OutboxClaims1732800000000 } from './migrations/1732800000000-outbox-claims';
import { JobsOutboxContext1732900000000 } from './migrations/1732900000000-outbox-context';
import { CreateJobFunction1733000000000 } from './migrations/1733000000000-create-job-function';
import { JobPieces1733100000000 } from './migrations/1733100000000-job-pieces';
import { JobPieceEntity } from './job-piece.entity';
import { outboxEntity } from '@vj/outbox';

export const JOBS_ENTITIES = [JobEntity, IdempotencyKeyEntity, JobPieceEntity, outboxEntity(JOBS_SCHEMA)];

// Migrations only: the schema changes through reviewed migrations, never through synchronize.
export function createJobsDataSource(databaseUrl: string): DataSource {
  return new DataSource({
    type: 'postgres',
    url: databaseUrl,
    schema: JOBS_SCHEMA,
    entities: JOBS_ENTITIES,
    migrations: [CreateJobs1732300000000, JobFunding1732400000000, ProcessingCap1732500000000, Retention1732600000000, FailedAttempts1732700000000, OutboxClaims1732800000000, JobsOutboxContext1732900000000, CreateJobFunction1733000000000, JobPieces1733100000000],
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    applicationName: 'vj-jobs',
    ...CONNECTION_LIMITS,
  });
}
