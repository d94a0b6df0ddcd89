import type { WebhooksRpc } from '@vj/contracts';

// The gateway's view of the webhook delivery service (its NATS RPC catalogue, WebhooksRpc in contracts).
// messaging/rpc-webhooks.adapter.ts binds it to NATS; refusals arrive as ApiErrors.
export interface WebhooksPort {
  call<M extends keyof WebhooksRpc>(method: M, request: WebhooksRpc[M]['request']): Promise<WebhooksRpc[M]['reply']>;
}

export const WEBHOOKS_PORT = Symbol('WebhooksPort');
