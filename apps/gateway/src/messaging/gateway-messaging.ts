import { BillingRpcClient, connectNats, JobsRpcClient, MediaRpcClient, WebhooksRpcClient } from '@vj/messaging';
import type { BillingPort } from '../billing';
import type { GatewayConfig } from '../gateway.env';
import type { ServiceHealthPort } from '../health/service-health.port';
import type { JobsPort, JobUpdatesPort, MediaProbePort } from '../jobs';
import { NatsJobUpdatesAdapter } from './nats-job-updates.adapter';
import { NatsServiceHealth } from './nats-service-health';
import { RpcBillingAdapter } from './rpc-billing.adapter';
import { RpcJobsAdapter } from './rpc-jobs.adapter';
import { RpcMediaProbeAdapter } from './rpc-media-probe.adapter';
import { RpcWebhooksAdapter } from './rpc-webhooks.adapter';
import type { WebhooksPort } from '../webhooks';

// Everything the gateway reaches over NATS; tests pass fakes for the ports instead.
export interface GatewayMessaging {
  jobs: JobsPort;
  jobUpdates: JobUpdatesPort;
  billing: BillingPort;
  mediaProbe: MediaProbePort;
  webhooks: WebhooksPort;
  serviceHealth: ServiceHealthPort;
  close(): Promise<void>;
}

export async function connectGatewayMessaging(config: GatewayConfig): Promise<GatewayMessaging> {
  const nc = await connectNats({ url: config.NATS_URL, name: 'gateway' });
  return {
    jobs: new RpcJobsAdapter(new JobsRpcClient(nc, config.RPC_TIMEOUT_MS), config.RPC_TIMEOUT_MS),
    jobUpdates: new NatsJobUpdatesAdapter(nc),
    billing: new RpcBillingAdapter(new BillingRpcClient(nc, config.RPC_TIMEOUT_MS)),
    mediaProbe: new RpcMediaProbeAdapter(new MediaRpcClient(nc), config.ESTIMATE_PROBE_TIMEOUT_MS),
    webhooks: new RpcWebhooksAdapter(new WebhooksRpcClient(nc, config.RPC_TIMEOUT_MS)),
    serviceHealth: new NatsServiceHealth(nc),
    close: () => nc.drain(),
  };
}
