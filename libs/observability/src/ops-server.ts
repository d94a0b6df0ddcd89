import { Logger } from '@nestjs/common';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cachedFor } from './cached';
import { collectProcessMetrics, counter, gauge, METRICS_CONTENT_TYPE, metricsText } from './metrics';

// A dependency check of /readyz: true when it answers.
export type ReadinessCheck = () => Promise<boolean> | boolean;

export interface OpsServer {
  readonly port: number;
  // /readyz answers 503 "starting" until this is called, then 200 when every check is true.
  setReadiness(checks: Record<string, ReadinessCheck>): void;
  // Gauges read from elsewhere (a database, JetStream), refreshed before a scrape at most every
  // minIntervalMs; one that fails or hangs leaves its gauges as they were.
  addCollector(name: string, collect: () => Promise<void>, minIntervalMs?: number): void;
  close(): Promise<void>;
}

export interface OpsServerOptions {
  port: number;
  // When the port is taken (a second instance on one machine under `npm start`), serve on a free port
  // instead of refusing to start, and say which.
  fallbackToFreePort?: boolean;
  checkTimeoutMs?: number;
}

export interface ReadinessReport {
  status: 'ok' | 'unavailable' | 'starting';
  checks: Record<string, 'up' | 'down'>;
}

const READINESS_TTL_MS = 1_000;
const ready = () => gauge({ name: 'service_ready', help: '1 when /readyz answers 200: every dependency of this instance answers' });
const dependencyUp = () => gauge({ name: 'service_dependency_up', help: "1 when the dependency answers this instance's readiness check", labelNames: ['dependency'] });

// /readyz as metrics too, so an alert sees an instance that stays up but is not ready.
function recordReadiness(report: ReadinessReport): void {
  ready().set(report.status === 'ok' ? 1 : 0);
  for (const [dependency, state] of Object.entries(report.checks)) dependencyUp().set({ dependency }, state === 'up' ? 1 : 0);
}
const collectorErrors = () =>
  counter({ name: 'metrics_collector_errors_total', help: 'collectors of /metrics that failed or timed out (their gauges kept their last values)', labelNames: ['collector'] });

// Every service's operations endpoints on their own port, apart from the public API: /metrics
// (Prometheus), /livez (the process and its event loop answer) and /readyz (its dependencies answer,
// checked at most once a second).
export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  const logger = new Logger('Ops');
  const timeoutMs = options.checkTimeoutMs ?? 2_000;
  collectProcessMetrics();
  let readiness: (() => Promise<ReadinessReport>) | undefined;
  const collectors: { name: string; run: () => Promise<void> }[] = [];

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'method not allowed\n');
    if (path === '/livez') return send(res, 200, 'application/json', '{"status":"ok"}\n');
    if (path === '/readyz') {
      const report = readiness ? await readiness() : ({ status: 'starting', checks: {} } as ReadinessReport);
      return send(res, report.status === 'ok' ? 200 : 503, 'application/json', `${JSON.stringify(report)}\n`);
    }
    if (path === '/metrics') {
      await Promise.all([...collectors.map((collector) => collector.run()), readiness ? readiness().then(recordReadiness) : undefined]);
      return send(res, 200, METRICS_CONTENT_TYPE, await metricsText());
    }
    send(res, 404, 'text/plain', 'not found\n');
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      logger.error(`${req.url}: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) send(res, 500, 'text/plain', 'internal error\n');
    });
  });
  // Probes hold no connection open that would delay a shutdown.
  server.keepAliveTimeout = 1_000;

  const port = await listen(server, options.port).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EADDRINUSE' || !options.fallbackToFreePort) throw error;
    const free = await listen(server, 0);
    logger.warn(`port ${options.port} is taken (another instance on this machine?): /metrics, /livez and /readyz on port ${free}`);
    return free;
  });

  return {
    port,
    setReadiness(checks) {
      readiness = cachedFor(READINESS_TTL_MS, async () => {
        const entries = await Promise.all(Object.entries(checks).map(async ([name, check]) => [name, await withinTime(check, timeoutMs)] as const));
        const states = Object.fromEntries(entries.map(([name, up]) => [name, up ? 'up' : 'down'] as const));
        return { status: entries.every(([, up]) => up) ? 'ok' : 'unavailable', checks: states };
      });
    },
    addCollector(name, collect, minIntervalMs = 5_000) {
      const run = cachedFor(minIntervalMs, async () => {
        let problem: unknown;
        const collected = () => collect().then(() => true, (error: unknown) => ((problem = error), false));
        if (!(await withinTime(collected, timeoutMs))) {
          collectorErrors().inc({ collector: name });
          logger.warn(`metrics collector ${name}: ${problem === undefined ? `no answer in ${timeoutMs} ms` : String(problem)}`);
        }
      });
      collectors.push({ name, run });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store' });
  res.end(body);
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(port, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

// A check that throws or does not answer in time is false: probes must answer, not hang with it.
export async function withinTime(check: ReadinessCheck, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([Promise.resolve().then(check).then(Boolean, () => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
