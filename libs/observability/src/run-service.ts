import { Logger } from '@nestjs/common';
import { setupLogging } from './logger';
import { startOpsServer, type OpsServer } from './ops-server';
import { stopOnSignals } from './stop-signals';
import type { Tracing } from './tracing';

// What every service's process needs from its configuration before it boots.
export interface ServiceConfig {
  LOG_LEVEL: string;
  LOG_FORMAT: string;
  METRICS_PORT?: number;
}

export interface RunningService {
  // Stop taking work, finish or hand back what runs, close connections (stopOnSignals).
  stop(signal: string): Promise<void>;
}

export interface ServiceEntry<C extends ServiceConfig> {
  name: string;
  // Parses and checks the environment; a bad one stops the process before anything starts.
  config(env: NodeJS.ProcessEnv): C;
  // Started by main.ts's first import (./tracing), before the modules it instruments load.
  tracing: Tracing;
  // The ops server's port unless METRICS_PORT says another.
  defaultMetricsPort: number;
  // Boots the service with its ops server up: /livez answers while it starts, /readyz says when it can work.
  start(config: C, ops: OpsServer): Promise<RunningService>;
}

// The one process entry of every service: configuration, logging, the ops server (metrics and
// health), the service, then an ordered stop on SIGTERM or SIGINT; a failure to start is logged
// as fatal and exits 1.
export function runService<C extends ServiceConfig>(entry: ServiceEntry<C>): void {
  const main = async (): Promise<void> => {
    const config = entry.config(process.env);
    setupLogging(entry.name, { level: config.LOG_LEVEL, format: config.LOG_FORMAT });
    // A second instance on one machine (npm start) takes a free port and says which.
    const ops = await startOpsServer({ port: config.METRICS_PORT ?? entry.defaultMetricsPort, fallbackToFreePort: true });
    const service = await entry.start(config, ops);
    stopOnSignals(entry.name, { stop: (signal) => service.stop(signal), ops, tracing: entry.tracing });
  };
  main().catch((error: unknown) => {
    new Logger(entry.name).fatal(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  });
}
