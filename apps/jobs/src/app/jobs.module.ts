import { Logger, Module, type DynamicModule } from '@nestjs/common';
import { ADVISORY_LOCKS, ifAdvisoryLockFree, isDatabaseOutage } from '@vj/database';
import { JetStreamConsumers, JetStreamConsumersLifecycle, JetStreamPublisher, NATS_CONNECTION } from '@vj/messaging';
import { OutboxRelay, OutboxRelayLifecycle } from '@vj/outbox';
import { ObjectStorage, storageConfig } from '@vj/storage';
import type { NatsConnection } from 'nats';
import { DataSource } from 'typeorm';
import { billingEventDeadLetters, billingEventHandlers } from '../billing-events/billing-event-handlers';
import { BILLING_EVENTS_CONSUMER } from '../billing-events/billing-events-consumer';
import { JOBS_SCHEMA } from '../database/jobs-schema';
import { JobsService } from '../jobs/jobs.service';
import { TypeormJobStore } from '../jobs/typeorm-job-store';
import { PiecesService } from '../pieces/pieces.service';
import { TypeormPieceStore } from '../pieces/typeorm-piece-store';
import type { JobsConfig } from '../jobs.env';
import { countingJobEvents } from '../metrics/job-event-metrics';
import { reportDeadLetterHandlers, reportHandlers } from '../reports/report-handlers';
import { REPORTS_CONSUMER, RENDER_WORKER_DEAD_LETTERS } from '../reports/reports-consumer';
import { DeleteJobUseCase } from '../retention/delete-job.use-case';
import { JobFilesPurger } from '../retention/job-files-purger';
import { RetentionStore } from '../retention/retention-store';
import { RetentionSweeper } from '../retention/retention-sweeper';
import { JobsRpcLifecycle } from '../rpc/jobs-rpc.lifecycle';
import { type SweepLock } from '../sweeper/periodic';
import { StaleJobSweeper } from '../sweeper/stale-job-sweeper';
import { JOBS_CONFIG } from './jobs-config.token';

export interface JobsModuleDeps {
  config: JobsConfig;
  nc: NatsConnection;
  // Initialized and migrated.
  dataSource: DataSource;
}

const piecesLogger = new Logger('Pieces');

// One instance sweeps at a time; the others skip their turn.
function lockOf(dataSource: DataSource, key: number): SweepLock {
  return (work) => ifAdvisoryLockFree(dataSource, key, work);
}

// What the boot made before the app exists (config and connections) is given as values; everything
// else is made by Nest from what it needs.
@Module({})
export class JobsModule {
  static create({ config, nc, dataSource }: JobsModuleDeps): DynamicModule {
    return {
      module: JobsModule,
      providers: [
        { provide: JOBS_CONFIG, useValue: config },
        { provide: NATS_CONNECTION, useValue: nc },
        { provide: DataSource, useValue: dataSource },
        {
          provide: OutboxRelay,
          // The relay publishes rows many requests wrote: no ambient request context; counted for /metrics.
          useFactory: (settings: JobsConfig, connection: NatsConnection, database: DataSource) =>
            new OutboxRelay(database, countingJobEvents(new JetStreamPublisher(connection)), { schema: JOBS_SCHEMA, pollMs: settings.OUTBOX_POLL_MS }),
          inject: [JOBS_CONFIG, NATS_CONNECTION, DataSource],
        },
        {
          provide: PiecesService,
          useFactory: (settings: JobsConfig, database: DataSource, relay: OutboxRelay) =>
            new PiecesService(new TypeormPieceStore(database, { inFlightPerAccount: settings.SEGMENTS_IN_FLIGHT_PER_ACCOUNT }), { onOutboxWritten: () => relay.nudge() }),
          inject: [JOBS_CONFIG, DataSource, OutboxRelay],
        },
        {
          provide: JobsService,
          useFactory: (settings: JobsConfig, database: DataSource, relay: OutboxRelay, pieces: PiecesService) =>
            new JobsService(new TypeormJobStore(database), {
              queueTimeoutSeconds: settings.JOB_QUEUE_TIMEOUT_SECONDS,
              onOutboxWritten: () => relay.nudge(),
              // The job's end is committed whatever this does: the stale-job sweeper sends what it left.
              onPiecedJobEnded: (jobId) => pieces.jobEnded(jobId).catch((error: unknown) => piecesLogger.warn(`pieces of ended job ${jobId} left to the sweeper: ${String(error)}`)),
            }),
          inject: [JOBS_CONFIG, DataSource, OutboxRelay, PiecesService],
        },
        { provide: ObjectStorage, useFactory: (settings: JobsConfig) => new ObjectStorage(storageConfig(settings)), inject: [JOBS_CONFIG] },
        { provide: RetentionStore, useFactory: (database: DataSource) => new RetentionStore(database), inject: [DataSource] },
        { provide: JobFilesPurger, useFactory: (retention: RetentionStore, objects: ObjectStorage) => new JobFilesPurger(retention, objects), inject: [RetentionStore, ObjectStorage] },
        { provide: OutboxRelayLifecycle, useFactory: (relay: OutboxRelay) => new OutboxRelayLifecycle(relay), inject: [OutboxRelay] },
        {
          provide: JobsRpcLifecycle,
          useFactory: (connection: NatsConnection, jobs: JobsService, purger: JobFilesPurger) => new JobsRpcLifecycle(connection, jobs, new DeleteJobUseCase(jobs, purger)),
          inject: [NATS_CONNECTION, JobsService, JobFilesPurger],
        },
        {
          provide: RetentionSweeper,
          useFactory: (settings: JobsConfig, database: DataSource, retention: RetentionStore, purger: JobFilesPurger, objects: ObjectStorage) =>
            new RetentionSweeper(
              retention,
              purger,
              objects,
              {
                intervalMs: settings.RETENTION_SWEEP_INTERVAL_SECONDS * 1_000,
                resultRetentionMs: settings.RESULT_RETENTION_DAYS * 24 * 3_600_000,
                uploadRetentionMs: settings.UPLOAD_RETENTION_HOURS * 3_600_000,
              },
              undefined,
              lockOf(database, ADVISORY_LOCKS.retentionSweep),
            ),
          inject: [JOBS_CONFIG, DataSource, RetentionStore, JobFilesPurger, ObjectStorage],
        },
        {
          provide: StaleJobSweeper,
          useFactory: (settings: JobsConfig, database: DataSource, jobs: JobsService, pieces: PiecesService) =>
            new StaleJobSweeper(
              jobs,
              pieces,
              { intervalMs: settings.SWEEP_INTERVAL_SECONDS * 1_000, graceMs: settings.JOB_TIMEOUT_GRACE_SECONDS * 1_000 },
              lockOf(database, ADVISORY_LOCKS.staleJobSweep),
            ),
          inject: [JOBS_CONFIG, DataSource, JobsService, PiecesService],
        },
        {
          provide: JetStreamConsumersLifecycle,
          // Both durable consumers are read by one runtime, each subject by its handler.
          useFactory: (connection: NatsConnection, jobs: JobsService, pieces: PiecesService) =>
            new JetStreamConsumersLifecycle(
              new JetStreamConsumers({
                connection,
                consumers: [REPORTS_CONSUMER, BILLING_EVENTS_CONSUMER],
                deadLetterWatches: [RENDER_WORKER_DEAD_LETTERS],
                handlers: { ...reportHandlers(jobs, pieces), ...billingEventHandlers(jobs) },
                deadLetterHandlers: { ...reportDeadLetterHandlers(jobs), ...billingEventDeadLetters },
                isOutage: isDatabaseOutage,
              }),
            ),
          inject: [NATS_CONNECTION, JobsService, PiecesService],
        },
      ],
    };
  }
}
