import { pingHealth } from '@vj/messaging';
import type { ServiceName } from '@vj/contracts';
import type { NatsConnection } from 'nats';
import type { ServiceHealthPort } from '../health/service-health.port';

const PING_TIMEOUT_MS = 1_000;

export class NatsServiceHealth implements ServiceHealthPort {
  constructor(private readonly nc: NatsConnection) {}

  isConnected(): boolean {
    return !this.nc.isClosed();
  }

  async ping(service: ServiceName): Promise<boolean> {
    return (await pingHealth(this.nc, service, PING_TIMEOUT_MS))?.ready === true;
  }
}
