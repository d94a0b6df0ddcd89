import { gauge } from './metrics';
import { startOpsServer, type OpsServer } from './ops-server';

describe('the operations server (/livez, /readyz, /metrics)', () => {
  const servers: OpsServer[] = [];
  const start = async (options: Parameters<typeof startOpsServer>[0]) => {
    const server = await startOpsServer(options);
    servers.push(server);
    return server;
  };
  const get = async (server: OpsServer, path: string) => {
    const response = await fetch(`http://127.0.0.1:${server.port}${path}`);
    return { status: response.status, text: await response.text(), type: response.headers.get('content-type') };
  };

  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  it('answers /livez at once and /readyz 503 "starting" until the service says what to check', async () => {
    const ops = await start({ port: 0 });
    expect(await get(ops, '/livez')).toMatchObject({ status: 200 });
    const starting = await get(ops, '/readyz');
    expect(starting.status).toBe(503);
    expect(JSON.parse(starting.text)).toEqual({ status: 'starting', checks: {} });
  });

  it('is ready when every check answers, names the one that does not, and checks at most once a second', async () => {
    const ops = await start({ port: 0, checkTimeoutMs: 200 });
    let databaseUp = true;
    let databaseChecks = 0;
    ops.setReadiness({ nats: () => true, database: async () => (databaseChecks++, databaseUp), s3: () => new Promise<boolean>(() => undefined) });
    const first = await get(ops, '/readyz');
    expect(first.status).toBe(503);
    expect(JSON.parse(first.text)).toEqual({ status: 'unavailable', checks: { nats: 'up', database: 'up', s3: 'down' } });
    ops.setReadiness({ nats: () => true, database: async () => (databaseChecks++, databaseUp) });
    databaseChecks = 0;
    expect((await get(ops, '/readyz')).status).toBe(200);
    databaseUp = false;
    // Within the second: the cached answer, no new check.
    expect((await get(ops, '/readyz')).status).toBe(200);
    expect(databaseChecks).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1_050));
    const down = await get(ops, '/readyz');
    expect(down.status).toBe(503);
    expect(JSON.parse(down.text).checks.database).toBe('down');
  });

  it('serves Prometheus text with the process metrics and the gauges its collectors refresh', async () => {
    const ops = await start({ port: 0 });
    const depth = gauge({ name: 'test_queue_depth', help: 'a test gauge', labelNames: ['stream'] });
    let value = 3;
    ops.addCollector('test', async () => depth.set({ stream: 'VJ_WORK' }, value), 0);
    ops.addCollector('broken', async () => {
      throw new Error('no JetStream');
    });
    const metrics = await get(ops, '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.type).toContain('text/plain');
    expect(metrics.text).toContain('process_cpu_seconds_total');
    expect(metrics.text).toContain('nodejs_eventloop_lag_seconds');
    expect(metrics.text).toContain('test_queue_depth{stream="VJ_WORK"} 3');
    expect(metrics.text).toContain('metrics_collector_errors_total{collector="broken"} 1');
    ops.setReadiness({ nats: () => true, database: () => false });
    const withReadiness = (await get(ops, '/metrics')).text;
    expect(withReadiness).toContain('service_ready 0');
    expect(withReadiness).toContain('service_dependency_up{dependency="nats"} 1');
    expect(withReadiness).toContain('service_dependency_up{dependency="database"} 0');
    value = 5;
    expect((await get(ops, '/metrics')).text).toContain('test_queue_depth{stream="VJ_WORK"} 5');
  });

  it('falls back to a free port when its port is taken (a second instance on one machine)', async () => {
    const first = await start({ port: 0 });
    const second = await start({ port: first.port, fallbackToFreePort: true });
    expect(second.port).not.toBe(first.port);
    expect((await get(second, '/livez')).status).toBe(200);
    await expect(startOpsServer({ port: first.port })).rejects.toThrow(/EADDRINUSE/);
  });
});
