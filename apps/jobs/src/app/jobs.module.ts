import { Module, type DynamicModule } from '@nestjs/common';
import { JetStreamPublisher } from '@vj/messaging';
import { ObjectStorage, storageConfig } from '@vj/storage';
import type { NatsConnection } from 'nats';
import type { DataSource } from 'typeorm';
import { BillingEventsController } from '../billing-events/billing-events.controller';
import { HealthLifecycle } from '../health/health.lifecycle';
import { JOBS_SCHEMA } from '../database/jobs-schema';
import { JobsService } from '../jobs/jobs.service';
import { TypeormJobStore } from '../jobs/typeorm-job-store';
import type { JobsConfig } from '../jobs.env';
import { OutboxRelay, OutboxRelayLifecycle } from '@vj/outbox';
import { ReportsController } from '../reports/reports.controller';
import { JobsRpcLifecycle } from '../rpc/jobs-rpc.lifecycle';
import { DeleteJobUseCase } from '../retention/delete-job.use-case';
import { JobFilesPurger } from '../retention/job-files-purger';
import { RetentionStore } from '../retention/retention-store';
import { RetentionSweeper } from '../retention/retention-sweeper';
import { StaleJobSweeper } from '../sweeper/stale-job-sweeper';
import { type SweepLock } from '../sweeper/periodic';
import { ADVISORY_LOCKS, ifAdvisoryLockFree } from '@vj/database';
import { ConnectionsLifecycle } from './connections.lifecycle';
import { countingJobEvents } from '../metrics/job-event-metrics';


export interface JobsModuleDeps {
  config: JobsConfig;
  nc: NatsConnection;
  // Initialized and migrated.
  dataSource: DataSource;
}

@Module({})
export class JobsModule {
  static create({ config, nc, dataSource }: JobsModuleDeps): DynamicModule {
    // The relay publishes rows many requests wrote: no ambient request context; counted for /metrics.
    const publisher = countingJobEvents(new JetStreamPublisher(nc));
    const relay = new OutboxRelay(dataSource, publisher, { schema: JOBS_SCHEMA, pollMs: config.OUTBOX_POLL_MS });
    const jobs = new JobsService(new TypeormJobStore(dataSource), {
      queueTimeoutSeconds: config.JOB_QUEUE_TIMEOUT_SECONDS,
      onOutboxWritten: () => relay.nudge(),
    });
    const objects = new ObjectStorage(storageConfig(config));
    const retention = new RetentionStore(dataSource);
    const purger = new JobFilesPurger(retention, objects);
    // One instance sweeps at a time; the others skip their turn.
    const lockOf = (key: number): SweepLock => (work) => ifAdvisoryLockFree(dataSource, key, work);
    const sweeper = new RetentionSweeper(
      retention,
      purger,
      objects,
      {
        intervalMs: config.RETENTION_SWEEP_INTERVAL_SECONDS * 1_000,
        resultRetentionMs: config.RESULT_RETENTION_DAYS * 24 * 3_600_000,
        uploadRetentionMs: config.UPLOAD_RETENTION_HOURS * 3_600_000,
      },
      undefined,
      lockOf(ADVISORY_LOCKS.retentionSweep),
    );
    return {
      module: JobsModule,
      controllers: [ReportsController, BillingEventsController],
      providers: [
        { provide: JobsService, useValue: jobs },
        { provide: OutboxRelayLifecycle, useValue: new OutboxRelayLifecycle(relay) },
        { provide: JobsRpcLifecycle, useValue: new JobsRpcLifecycle(nc, jobs, new DeleteJobUseCase(jobs, purger)) },
        { provide: RetentionSweeper, useValue: sweeper },
        { provide: HealthLifecycle, useValue: new HealthLifecycle(nc, dataSource) },
        {
          provide: StaleJobSweeper,
          useValue: new StaleJobSweeper(
            jobs,
            { intervalMs: config.SWEEP_INTERVAL_SECONDS * 1_000, graceMs: config.JOB_TIMEOUT_GRACE_SECONDS * 1_000 },
            lockOf(ADVISORY_LOCKS.staleJobSweep),
          ),
        },
        { provide: ConnectionsLifecycle, useValue: new ConnectionsLifecycle(nc, dataSource) },
      ],
    };
  }
}
