import type { DynamicModule, INestApplicationContext } from '@nestjs/common';
import type { OpsServer } from '@vj/observability';
import type { JetStreamManager, NatsConnection } from 'nats';
import type { DataSource } from 'typeorm';
import { bootNatsService, type RunningNatsService } from './boot-nats-service';

// What the boot makes before the module: the service's connections, migrated and with its streams.
export interface ServiceConnections {
  nc: NatsConnection;
  dataSource: DataSource;
}

export interface DatabaseServiceSpec {
  name: 'jobs' | 'billing' | 'webhook-delivery';
  config: { NATS_URL: string; DATABASE_URL: string; LOG_LEVEL: string };
  database: {
    create(url: string): DataSource;
    // Runs the service's migrations (under its advisory lock: several instances may boot at once).
    migrate(dataSource: DataSource): Promise<unknown>;
  };
  module(connections: ServiceConnections): DynamicModule | Promise<DynamicModule>;
  observe?(ops: OpsServer, parts: ServiceConnections & { app: INestApplicationContext; jsm: JetStreamManager }): void;
  readyLine(app: INestApplicationContext): string;
}

// A service that keeps its state in PostgreSQL: migrated before NATS connects, ready and healthy
// while the database answers, closed after NATS (bootNatsService does the rest).
export async function bootDatabaseService(spec: DatabaseServiceSpec, ops?: OpsServer): Promise<RunningNatsService> {
  // Loaded only here: the render worker boots through this library too, and loads no TypeORM.
  const { answersQueries } = await import('@vj/database');
  const dataSource = await spec.database.create(spec.config.DATABASE_URL).initialize();
  const database = () => answersQueries(dataSource);
  let running: RunningNatsService;
  try {
    await spec.database.migrate(dataSource);
    running = await bootNatsService(
      {
        name: spec.name,
        config: spec.config,
        module: (nc) => spec.module({ nc, dataSource }),
        dependencies: { database },
        healthy: database,
        observe: spec.observe && ((server, parts) => spec.observe?.(server, { ...parts, dataSource })),
        readyLine: spec.readyLine,
      },
      ops,
    );
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
  return {
    app: running.app,
    async stop(reason) {
      await running.stop(reason);
      if (dataSource.isInitialized) await dataSource.destroy();
    },
  };
}
