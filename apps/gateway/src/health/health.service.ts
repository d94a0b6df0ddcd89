import { Inject, Injectable } from '@nestjs/common';
import { SERVICES } from '@vj/contracts';
import { ObjectStorage } from '@vj/storage';
import { AccountsRepository } from '../identity/accounts.repository';
import { SERVICE_HEALTH_PORT, type ServiceHealthPort } from './service-health.port';

export type CheckState = 'up' | 'down';

export interface HealthReport {
  status: 'ok' | 'unavailable';
  checks: Record<string, CheckState>;
}

// Ready means a job can be taken end to end: NATS, S3, the database and every service answering.
@Injectable()
export class HealthService {
  constructor(
    @Inject(SERVICE_HEALTH_PORT) private readonly services: ServiceHealthPort,
    private readonly storage: ObjectStorage,
    private readonly accounts: AccountsRepository,
  ) {}

  async check(): Promise<HealthReport> {
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
