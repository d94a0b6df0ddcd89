import { connectNats, JobsRpcClient } from '@vj/messaging';
import type { GatewayConfig } from '../gateway.env';
import type { ServiceHealthPort } from '../health/service-health.port';
import type { JobsPort } from '../jobs/jobs-port';
import { NatsServiceHealth } from './nats-service-health';
import { RpcJobsAdapter } from './rpc-jobs.adapter';

// Everything the gateway reaches over NATS; tests pass fakes for both ports instead.
export interface GatewayMessaging {
  jobs: JobsPort;
  serviceHealth: ServiceHealthPort;
  close(): Promise<void>;
}

export async function connectGatewayMessaging(config: GatewayConfig): Promise<GatewayMessaging> {
  const nc = await connectNats({ url: config.NATS_URL, name: 'gateway' });
  return {
    jobs: new RpcJobsAdapter(new JobsRpcClient(nc, config.RPC_TIMEOUT_MS), config.RPC_TIMEOUT_MS),
    serviceHealth: new NatsServiceHealth(nc),
    close: () => nc.drain(),
  };
}
