import type { ServiceName } from '@vj/contracts';
import type { ServiceHealthPort } from '../src/health/service-health.port';
import type { GatewayMessaging } from '../src/messaging/gateway-messaging';
import { FakeBillingPort } from './fake-billing-port';
import { FakeJobUpdates } from './fake-job-updates';
import { FakeJobsPort } from './fake-jobs-port';
import { FakeMediaProbe } from './fake-media-probe';
import { FakeWebhooks } from './fake-webhooks';

export class FakeServiceHealth implements ServiceHealthPort {
  connected = true;
  readonly down = new Set<ServiceName>();

  isConnected(): boolean {
    return this.connected;
  }

  async ping(service: ServiceName): Promise<boolean> {
    return !this.down.has(service);
  }
}

export function fakeMessaging(): GatewayMessaging & {
  jobs: FakeJobsPort;
  jobUpdates: FakeJobUpdates;
  billing: FakeBillingPort;
  mediaProbe: FakeMediaProbe;
  webhooks: FakeWebhooks;
  serviceHealth: FakeServiceHealth;
} {
  return {
    jobs: new FakeJobsPort(),
    jobUpdates: new FakeJobUpdates(),
    billing: new FakeBillingPort(),
    mediaProbe: new FakeMediaProbe(),
    webhooks: new FakeWebhooks(),
    serviceHealth: new FakeServiceHealth(),
    close: async () => undefined,
  };
}
