import { RpcError, type BillingRpcClient } from '@vj/messaging';
import type { BillingRpc, BillingRpcMethod } from '@vj/contracts';
import { BillingServiceError, type BillingPort } from '../billing';

// Binds the BillingPort to billing's NATS RPC; RpcError codes become BillingServiceError codes.
export class RpcBillingAdapter implements BillingPort {
  constructor(private readonly client: BillingRpcClient) {}

  priceList(request: BillingRpc['price_list']['request']) {
    return this.call('price_list', request);
  }

  balance(request: BillingRpc['balance']['request']) {
    return this.call('balance', request);
  }

  usage(request: BillingRpc['usage']['request']) {
    return this.call('usage', request);
  }

  ledger(request: BillingRpc['ledger']['request']) {
    return this.call('ledger', request);
  }

  grant(request: BillingRpc['grant']['request']) {
    return this.call('grant', request);
  }

  private async call<M extends BillingRpcMethod>(method: M, request: BillingRpc[M]['request']): Promise<BillingRpc[M]['reply']> {
    try {
      return await this.client.call(method, request);
    } catch (error) {
      if (error instanceof RpcError) throw new BillingServiceError(error.code, error.message);
      throw error;
    }
  }
}
