import { CONSUMERS, STREAMS } from '@vj/contracts';
import { jetStreamCollector, outboxCollector, type OpsServer } from '@vj/observability';
import { bootDatabaseService, type RunningNatsService } from '@vj/service-boot';
import { BILLING_EVENTS_CONSUMER } from '../billing-events/billing-events-consumer';
import { JOBS_SCHEMA } from '../database/jobs-schema';
import { createJobsDataSource } from '../database/jobs-data-source';
import { runJobsMigrations } from '../database/run-jobs-migrations';
import type { JobsConfig } from '../jobs.env';
import { REPORTS_CONSUMER } from '../reports/reports-consumer';
import { JobsModule } from './jobs.module';

// Connects, migrates, wires and starts the jobs service (its consumers pull once every provider is
// ready, JetStreamConsumersLifecycle); main.ts and the integration tests both boot it this way.
// With `ops`, /readyz checks its database and NATS, and /metrics reports its outbox and JetStream:
// any one service may report the streams' depth and the dead letters (its NATS user reads every
// stream's info); the jobs service does, with its own consumers' lag. Billing and the workers report theirs.
export function createJobsApp(config: JobsConfig, ops?: OpsServer): Promise<RunningNatsService> {
  return bootDatabaseService(
    {
      name: 'jobs',
      config,
      database: { create: createJobsDataSource, migrate: runJobsMigrations },
      module: ({ nc, dataSource }) => JobsModule.create({ config, nc, dataSource }),
      observe: (server, { dataSource, jsm }) => {
        server.addCollector('outbox', outboxCollector(dataSource, JOBS_SCHEMA));
        server.addCollector(
          'jetstream',
          jetStreamCollector(jsm, {
            consumers: [REPORTS_CONSUMER, BILLING_EVENTS_CONSUMER],
            streams: Object.values(STREAMS),
            deadLetters: { stream: STREAMS.deadLetters, consumers: Object.values(CONSUMERS) },
          }),
        );
      },
      readyLine: () => 'ready',
    },
    ops,
  );
}
