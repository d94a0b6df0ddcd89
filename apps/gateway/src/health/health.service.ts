import { Inject, Injectable } from '@nestjs/common';
import { SERVICES } from '@vj/contracts';
import { cachedFor } from '@vj/observability';
import { ObjectStorage } from '@vj/storage';
import { AccountsRepository } from '../identity';
import { SERVICE_HEALTH_PORT, type ServiceHealthPort } from './service-health.port';

export type CheckState = 'up' | 'down';

export interface HealthReport {
  status: 'ok' | 'unavailable';
  checks: Record<string, CheckState>;
}

// /healthz answers from this for a second: each real check pings S3, the database and every service.
export const HEALTH_CACHE_MS = 1_000;

// Ready means a job can be taken end to end: NATS, S3, the database and every service answering.
@Injectable()
export class HealthService {
  private readonly cached = cachedFor(HEALTH_CACHE_MS, () => this.checkNow());

  constructor(
    @Inject(SERVICE_HEALTH_PORT) private readonly services: ServiceHealthPort,
    private readonly storage: ObjectStorage,
    private readonly accounts: AccountsRepository,
  ) {}

  // The last report if it is under a second old; concurrent callers share one check.
  check(): Promise<HealthReport> {
    return this.cached();
  }

  // The gateway's own dependencies, for /readyz: a gateway that reaches them serves requests (and
  // answers 503 where another service is down), so it stays in its load balancer; /healthz tells
  // whether the whole platform can take a job.
  readinessChecks(): Record<string, () => Promise<boolean> | boolean> {
    return {
      nats: () => this.services.isConnected(),
      s3: () => this.storage.ping(),
      database: () => this.accounts.ping(),
    };
  }

  private async checkNow(): Promise<HealthReport> {
    const nats = this.services.isConnected();
    const [s3, database, ...pings] = await Promise.all([
      withinTime(this.storage.ping()),
      withinTime(this.accounts.ping()),
      ...SERVICES.map((service) => (nats ? this.services.ping(service).catch(() => false) : Promise.resolve(false))),
    ]);
    const checks: Record<string, CheckState> = { nats: state(nats), s3: state(s3), database: state(database) };
    SERVICES.forEach((service, index) => (checks[service] = state(pings[index] ?? false)));
    return { status: Object.values(checks).every((check) => check === 'up') ? 'ok' : 'unavailable', checks };
  }
}

// A dependency that does not answer in time is down: /healthz must answer, not hang with it.
const CHECK_TIMEOUT_MS = 2_000;

function withinTime(check: Promise<boolean>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS)));
  return Promise.race([check.catch(() => false), timeout]).finally(() => clearTimeout(timer));
}

function state(up: boolean): CheckState {
  return up ? 'up' : 'down';
}
