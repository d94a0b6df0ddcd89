import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import type { RpcService } from '@vj/messaging';
import type { NatsConnection } from 'nats';
import { serveWebhookEndpoints } from '../webhooks-rpc';
import type { WebhookEndpoints } from './webhook-endpoints';

// The accounts' endpoints, served over RPC to the gateway while the service runs.
export class EndpointsRpcLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private rpc: RpcService | undefined;

  constructor(
    private readonly nc: NatsConnection,
    private readonly endpoints: WebhookEndpoints,
  ) {}

  onApplicationBootstrap(): void {
    this.rpc = serveWebhookEndpoints(this.nc, this.endpoints);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.rpc?.close();
  }
}
