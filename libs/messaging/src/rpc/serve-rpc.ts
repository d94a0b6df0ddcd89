import { Logger } from '@nestjs/common';
import { RPC_ENDPOINTS, type BillingRpc, type JobsRpc, type MediaRpc, type RpcEndpoint, type RpcReply } from '@vj/contracts';
import type { Msg, NatsConnection, Subscription } from 'nats';
import { decodeJson, encodeJson } from '../json-codec';
import { respondQuietly } from './respond-quietly';
import { RpcError } from './rpc-error';

// One handler per method, enforced by the type: a missing method does not compile.
export type RpcHandlers<C extends { [M in keyof C]: { request: unknown; reply: unknown } }> = {
  [M in keyof C]: (request: C[M]['request']) => Promise<C[M]['reply']>;
};
export type JobsRpcHandlers = RpcHandlers<JobsRpc>;
export type BillingRpcHandlers = RpcHandlers<BillingRpc>;
export type MediaRpcHandlers = RpcHandlers<MediaRpc>;

export interface RpcService {
  close(): Promise<void>;
}

const logger = new Logger('Rpc');

// A plain queue-group subscription rather than Nest's NATS transport: the client speaks a small typed
// envelope (RpcReply) instead of Nest's {pattern, id, data} packets, so any NATS client can call it.
export function serveRpc<M extends string>(
  nc: NatsConnection,
  endpoint: RpcEndpoint<M>,
  handlers: Record<M, (request: never) => Promise<unknown>>,
): RpcService {
  const subscriptions: Subscription[] = endpoint.methods.map((method) => {
    const handler = handlers[method] as ((request: unknown) => Promise<unknown>) | undefined;
    if (typeof handler !== 'function') throw new Error(`no ${endpoint.service} RPC handler for "${method}"`);
    const name = `${endpoint.service}.${method}`;
    return nc.subscribe(endpoint.subject(method), {
      queue: endpoint.queue,
      callback: (error, msg) => {
        if (error) return logger.error(`${name} subscription: ${error.message}`);
        void answer(name, msg, handler);
      },
    });
  });
  return {
    async close() {
      await Promise.all(subscriptions.map((sub) => (sub.isClosed() ? undefined : sub.drain())));
    },
  };
}

export const serveJobsRpc = (nc: NatsConnection, handlers: JobsRpcHandlers) => serveRpc(nc, RPC_ENDPOINTS.jobs, handlers);
export const serveBillingRpc = (nc: NatsConnection, handlers: BillingRpcHandlers) => serveRpc(nc, RPC_ENDPOINTS.billing, handlers);
export const serveMediaRpc = (nc: NatsConnection, handlers: MediaRpcHandlers) => serveRpc(nc, RPC_ENDPOINTS.media, handlers);

async function answer(name: string, msg: Msg, handler: (request: unknown) => Promise<unknown>): Promise<void> {
  let reply: RpcReply<unknown>;
  try {
    reply = { ok: true, data: await handler(decodeJson(msg.data)) };
  } catch (error) {
    if (error instanceof RpcError && error.code !== 'unavailable') {
      reply = { ok: false, error: { code: error.code, message: error.message } };
    } else {
      logger.error(`${name} failed: ${error instanceof Error ? error.stack : String(error)}`);
      reply = { ok: false, error: { code: 'internal', message: 'internal error' } };
    }
  }
  respondQuietly(msg, encodeJson(reply));
}
