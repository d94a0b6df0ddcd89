import { Logger, Module, type DynamicModule } from '@nestjs/common';
import { CONSUMERS } from '@vj/contracts';
import { JobEventsConsumer } from '@vj/job-events';
import { JobsRpcClient, NATS_CONNECTION } from '@vj/messaging';
import { ObjectStorage, storageConfig } from '@vj/storage';
import type { NatsConnection } from 'nats';
import { DataSource } from 'typeorm';
import { Deliveries } from './deliveries/deliveries';
import { EndpointsRpcLifecycle } from './endpoints/endpoints-rpc.lifecycle';
import { WebhookEndpoints } from './endpoints/webhook-endpoints';
import { IntakeLifecycle } from './intake/intake.lifecycle';
import { JobEventIntake } from './intake/job-event-intake';
import { JobProgressIntake } from './intake/job-progress-intake';
import { ProgressEndpoints } from './intake/progress-endpoints';
import { RenderedJobReader } from './intake/rendered-job-reader';
import { RetentionLifecycle } from './retention/retention.lifecycle';
import { WebhookRetention } from './retention/webhook-retention';
import { WEBHOOKS_CONFIG } from './webhooks-config.token';
import type { WebhooksConfig } from './webhooks.env';

export interface WebhookDeliveryDeps {
  config: WebhooksConfig;
  nc: NatsConnection;
  // Initialized and migrated.
  dataSource: DataSource;
}

const JOBS_RPC_TIMEOUT_MS = 5_000;
const logger = new Logger('webhook-delivery');
const reportError = (what: string) => (error: unknown) => logger.error(`${what}: ${error instanceof Error ? error.message : String(error)}`);

// Job events in (one durable consumer shared by every instance), deliveries out (each instance claims
// due rows), the account's endpoints served over RPC. Nothing is held in memory: every delivery is a
// row before its event is acknowledged, so a kill -9 loses none. What the boot made before the app
// exists (config and connections) is given as values; Nest makes the rest from what it needs.
@Module({})
export class WebhookDeliveryModule {
  static create({ config, nc, dataSource }: WebhookDeliveryDeps): DynamicModule {
    return {
      module: WebhookDeliveryModule,
      providers: [
        { provide: WEBHOOKS_CONFIG, useValue: config },
        { provide: NATS_CONNECTION, useValue: nc },
        { provide: DataSource, useValue: dataSource },
        { provide: ObjectStorage, useFactory: (settings: WebhooksConfig) => new ObjectStorage(storageConfig(settings)), inject: [WEBHOOKS_CONFIG] },
        { provide: Deliveries, useFactory: (database: DataSource, settings: WebhooksConfig) => new Deliveries(database, settings, reportError), inject: [DataSource, WEBHOOKS_CONFIG] },
        { provide: ProgressEndpoints, useFactory: (database: DataSource) => new ProgressEndpoints(database), inject: [DataSource] },
        {
          provide: JobEventIntake,
          useFactory: (database: DataSource, connection: NatsConnection, storage: ObjectStorage, settings: WebhooksConfig, deliveries: Deliveries) =>
            new JobEventIntake(database, new RenderedJobReader(new JobsRpcClient(connection, JOBS_RPC_TIMEOUT_MS), storage, settings.RESULT_URL_TTL_SECONDS), () => deliveries.nudge()),
          inject: [DataSource, NATS_CONNECTION, ObjectStorage, WEBHOOKS_CONFIG, Deliveries],
        },
        {
          provide: JobEventsConsumer,
          useFactory: (connection: NatsConnection, intake: JobEventIntake) =>
            new JobEventsConsumer(connection, {
              durable: CONSUMERS.webhooksJobEvents,
              // An outage of the jobs service or the database holds the events back, never drops one.
              maxDeliver: -1,
              backoffMs: [1_000, 5_000, 15_000, 60_000],
              handle: async (event) => void (await intake.take(event)),
              log: (line) => logger.warn(line),
            }),
          inject: [NATS_CONNECTION, JobEventIntake],
        },
        {
          provide: JobProgressIntake,
          useFactory: (connection: NatsConnection, database: DataSource, endpoints: ProgressEndpoints, deliveries: Deliveries) =>
            new JobProgressIntake(connection, database, endpoints, () => deliveries.nudge(), (line) => logger.warn(line)),
          inject: [NATS_CONNECTION, DataSource, ProgressEndpoints, Deliveries],
        },
        { provide: IntakeLifecycle, useFactory: (events: JobEventsConsumer, progress: JobProgressIntake) => new IntakeLifecycle(events, progress), inject: [JobEventsConsumer, JobProgressIntake] },
        {
          provide: EndpointsRpcLifecycle,
          useFactory: (connection: NatsConnection, database: DataSource, progressEndpoints: ProgressEndpoints, deliveries: Deliveries) =>
            new EndpointsRpcLifecycle(connection, new WebhookEndpoints(database, { onDue: () => deliveries.nudge(), onChanged: (accountId) => progressEndpoints.forget(accountId) })),
          inject: [NATS_CONNECTION, DataSource, ProgressEndpoints, Deliveries],
        },
        {
          provide: RetentionLifecycle,
          useFactory: (database: DataSource, settings: WebhooksConfig) =>
            new RetentionLifecycle(new WebhookRetention(database, settings.WEBHOOK_RETENTION_DAYS * 24 * 3_600_000), reportError('retention sweep failed')),
          inject: [DataSource, WEBHOOKS_CONFIG],
        },
      ],
    };
  }
}
