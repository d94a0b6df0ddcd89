import { BillingRpcClient, pingHealth } from '@vj/messaging';
import { connect } from 'nats';
import type { BillingPort } from '../billing/billing-port';
import { RpcBillingAdapter } from '../messaging/rpc-billing.adapter';

const CONNECT_TIMEOUT_MS = 5_000;
const PING_TIMEOUT_MS = 2_000;
const CALL_TIMEOUT_MS = 10_000;

export class BillingUnreachableError extends Error {}

export interface CliBilling {
  port: BillingPort;
  // True once a billing instance answers its health ping as ready.
  isReady(): Promise<boolean>;
  close(): Promise<void>;
}

// Unlike the services' connection (connectNats waits for NATS forever), an operator command fails within
// seconds when NATS is not there.
export async function connectCliBilling(natsUrl: string): Promise<CliBilling> {
  const nc = await connect({ servers: natsUrl, name: 'gateway-cli', timeout: CONNECT_TIMEOUT_MS, maxReconnectAttempts: 0 }).catch((error: unknown) => {
    throw new BillingUnreachableError(`cannot reach NATS at ${natsUrl}: ${error instanceof Error ? error.message : String(error)}`);
  });
  return {
    port: new RpcBillingAdapter(new BillingRpcClient(nc, CALL_TIMEOUT_MS)),
    isReady: async () => (await pingHealth(nc, 'billing', PING_TIMEOUT_MS))?.ready === true,
    close: () => nc.drain(),
  };
}
