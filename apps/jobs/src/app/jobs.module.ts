import { Module, type DynamicModule } from '@nestjs/common';
import { JetStreamPublisher } from '@vj/messaging';
import type { NatsConnection } from 'nats';
import type { DataSource } from 'typeorm';
import { BillingEventsController } from '../billing-events/billing-events.controller';
import { HealthLifecycle } from '../health/health.lifecycle';
import { JobsService } from '../jobs/jobs.service';
import { TypeormJobStore } from '../jobs/typeorm-job-store';
import type { JobsConfig } from '../jobs.env';
import { OutboxRelay } from '../outbox/outbox-relay';
import { ReportsController } from '../reports/reports.controller';
import { JobsRpcLifecycle } from '../rpc/jobs-rpc.lifecycle';
import { StaleJobSweeper } from '../sweeper/stale-job-sweeper';
import { ConnectionsLifecycle } from './connections.lifecycle';
import { OutboxRelayLifecycle } from './outbox-relay.lifecycle';

export interface JobsModuleDeps {
  config: JobsConfig;
  nc: NatsConnection;
  // Initialized and migrated.
  dataSource: DataSource;
}

@Module({})
export class JobsModule {
  static create({ config, nc, dataSource }: JobsModuleDeps): DynamicModule {
    const relay = new OutboxRelay(dataSource, new JetStreamPublisher(nc), { pollMs: config.OUTBOX_POLL_MS });
    const jobs = new JobsService(new TypeormJobStore(dataSource), {
      timeouts: { 'clean-audio-video': config.CLEAN_AUDIO_TIMEOUT_SECONDS, 'video-background-removal': config.BACKGROUND_REMOVAL_TIMEOUT_SECONDS },
      onOutboxWritten: () => relay.nudge(),
    });
    return {
      module: JobsModule,
      controllers: [ReportsController, BillingEventsController],
      providers: [
        { provide: JobsService, useValue: jobs },
        { provide: OutboxRelayLifecycle, useValue: new OutboxRelayLifecycle(relay) },
        { provide: JobsRpcLifecycle, useValue: new JobsRpcLifecycle(nc, jobs) },
        { provide: HealthLifecycle, useValue: new HealthLifecycle(nc, dataSource) },
        {
          provide: StaleJobSweeper,
          useValue: new StaleJobSweeper(jobs, { intervalMs: config.SWEEP_INTERVAL_SECONDS * 1_000, graceMs: config.JOB_TIMEOUT_GRACE_SECONDS * 1_000 }),
        },
        { provide: ConnectionsLifecycle, useValue: new ConnectionsLifecycle(nc, dataSource) },
      ],
    };
  }
}
