import { SERVICES, type ServiceName } from '@vj/contracts';
import { schemaViolations } from '@vj/http-contracts';
import type { ObjectStorage } from '@vj/storage';
import type { AccountsRepository } from '../identity';
import { HEALTH_CACHE_MS, HealthService } from './health.service';

function service(options: { nats?: boolean; s3?: boolean; db?: boolean; down?: ServiceName[] } = {}) {
  const pinged: ServiceName[] = [];
  const health = new HealthService(
    {
      isConnected: () => options.nats ?? true,
      ping: async (name) => (pinged.push(name), !(options.down ?? []).includes(name)),
    },
    { ping: async () => options.s3 ?? true } as ObjectStorage,
    { ping: async () => options.db ?? true } as AccountsRepository,
  );
  return { health, pinged };
}

describe('HealthService', () => {
  it('is ok when NATS, S3, the database and every service are up', async () => {
    const report = await service().health.check();
    expect(report).toEqual({
      status: 'ok',
      checks: { nats: 'up', s3: 'up', database: 'up', jobs: 'up', 'render-worker': 'up', billing: 'up', 'webhook-delivery': 'up' },
    });
    expect(schemaViolations('Health', report)).toEqual([]);
  });

  it('reports a dependency that hangs as down instead of hanging', async () => {
    jest.useFakeTimers();
    try {
      const health = new HealthService(
        { isConnected: () => true, ping: async () => true },
        { ping: () => new Promise<boolean>(() => undefined) } as ObjectStorage,
        { ping: async () => true } as AccountsRepository,
      );
      const pending = health.check();
      await jest.advanceTimersByTimeAsync(2_000);
      expect((await pending).checks.s3).toBe('down');
    } finally {
      jest.useRealTimers();
    }
  });

  it('is unavailable when one service does not answer its ping', async () => {
    const report = await service({ down: ['billing'] }).health.check();
    expect(report.status).toBe('unavailable');
    expect(report.checks.billing).toBe('down');
    expect(report.checks.jobs).toBe('up');
  });

  it('marks every service down without pinging when NATS is not connected', async () => {
    const { health, pinged } = service({ nats: false });
    const report = await health.check();
    expect(report.checks).toMatchObject({ nats: 'down', jobs: 'down', 'render-worker': 'down', billing: 'down' });
    expect(pinged).toEqual([]);
  });

  it('answers from its last check for a second: a burst of /healthz pings each dependency once', async () => {
    jest.useFakeTimers();
    try {
      const { health, pinged } = service();
      const reports = await Promise.all([health.check(), health.check(), health.check()]);
      expect(reports.every((report) => report.status === 'ok')).toBe(true);
      expect(pinged).toEqual([...SERVICES]);
      await jest.advanceTimersByTimeAsync(HEALTH_CACHE_MS - 1);
      await health.check();
      expect(pinged).toHaveLength(SERVICES.length);
      await jest.advanceTimersByTimeAsync(1);
      await health.check();
      expect(pinged).toHaveLength(2 * SERVICES.length);
    } finally {
      jest.useRealTimers();
    }
  });

  it("is ready (/readyz) on its own dependencies alone: a service that is down does not take the gateway out of its load balancer", async () => {
    const { health, pinged } = service({ down: ['billing', 'jobs'] });
    const checks = health.readinessChecks();
    expect(Object.keys(checks)).toEqual(['nats', 's3', 'database']);
    expect(await Promise.all(Object.values(checks).map((check) => check()))).toEqual([true, true, true]);
    expect(pinged).toEqual([]);
  });

  it('is unavailable when S3 or the database is unreachable', async () => {
    expect((await service({ s3: false }).health.check()).checks.s3).toBe('down');
    expect((await service({ db: false }).health.check()).status).toBe('unavailable');
  });
});
