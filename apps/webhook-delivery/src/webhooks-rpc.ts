import { isDatabaseOutage } from '@vj/database';
import { serveWebhooksRpc, type RpcService } from '@vj/messaging';
import type { NatsConnection } from 'nats';
import type { WebhookEndpoints } from './endpoints/webhook-endpoints';

// vj.rpc.webhooks.v1.*: what the gateway's /v1/webhook-endpoints and /v1/webhook-secret call.
export function serveWebhookEndpoints(nc: NatsConnection, endpoints: WebhookEndpoints): RpcService {
  return serveWebhooksRpc(nc, {
    create_endpoint: (request) => endpoints.create(request),
    list_endpoints: (request) => endpoints.list(request),
    delete_endpoint: (request) => endpoints.delete(request),
    rotate_endpoint_secret: (request) => endpoints.rotate(request),
    list_deliveries: (request) => endpoints.deliveries(request),
    retry_delivery: (request) => endpoints.retry(request),
    get_default_secret: (request) => endpoints.defaultSecret(request),
    rotate_default_secret: (request) => endpoints.rotateDefaultSecret(request),
  }, { isOutage: isDatabaseOutage });
}
