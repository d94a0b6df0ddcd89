import type { WebhooksRpc } from '@vj/contracts';
import { RpcError, type WebhooksRpcClient } from '@vj/messaging';
import { ApiError } from '../http/api-error';
import type { WebhooksPort } from '../webhooks';

// Binds the WebhooksPort to the webhook delivery service's NATS RPC; its refusals become request errors.
export class RpcWebhooksAdapter implements WebhooksPort {
  constructor(private readonly client: WebhooksRpcClient) {}

  async call<M extends keyof WebhooksRpc>(method: M, request: WebhooksRpc[M]['request']): Promise<WebhooksRpc[M]['reply']> {
    try {
      return await this.client.call(method, request);
    } catch (error) {
      if (!(error instanceof RpcError)) throw error;
      switch (error.code) {
        case 'not_found':
          throw ApiError.notFound(error.message);
        case 'conflict':
          throw new ApiError(409, 'conflict', error.message);
        case 'invalid_request':
          throw ApiError.invalid(error.message);
        case 'unavailable':
          throw new ApiError(503, 'unavailable', 'the webhook delivery service is unavailable; retry later');
        default:
          throw error;
      }
    }
  }
}
