import { Logger } from '@nestjs/common';
import { RPC_ENDPOINTS, type BillingRpc, type JobsRpc, type MediaRpc, type RpcEndpoint, type RpcReply, type WebhooksRpc } from '@vj/contracts';
import type { Msg, NatsConnection, Subscription } from 'nats';
import { logContextOf, markActiveSpanFailed, observeRpcServer, runInMessageContext, SpanKind } from '@vj/observability';
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
export type WebhooksRpcHandlers = RpcHandlers<WebhooksRpc>;

export interface RpcService {
  close(): Promise<void>;
}

const logger = new Logger('Rpc');

export interface ServeRpcOptions {
  // Errors that mean a dependency of the service is away (its database): answered `unavailable`, which
  // callers wait out or pass on as 503, instead of `internal`.
  isOutage?: (error: unknown) => boolean;
}

// A plain queue-group subscription rather than Nest's NATS transport: the client speaks a small typed
// envelope (RpcReply) instead of Nest's {pattern, id, data} packets, so any NATS client can call it.
export function serveRpc<M extends string>(
  nc: NatsConnection,
  endpoint: RpcEndpoint<M>,
  handlers: Record<M, (request: never) => Promise<unknown>>,
  options: ServeRpcOptions = {},
): RpcService {
  const subscriptions: Subscription[] = endpoint.methods.map((method) => {
    const handler = handlers[method] as ((request: unknown) => Promise<unknown>) | undefined;
    if (typeof handler !== 'function') throw new Error(`no ${endpoint.service} RPC handler for "${method}"`);
    return nc.subscribe(endpoint.subject(method), {
      queue: endpoint.queue,
      callback: (error, msg) => {
        if (error) return logger.error(`${endpoint.service}.${method} subscription: ${error.message}`);
        void answer(endpoint.service, method, msg, handler, options.isOutage);
      },
    });
  });
  return {
    async close() {
      await Promise.all(subscriptions.map((sub) => (sub.isClosed() ? undefined : sub.drain())));
    },
  };
}

export const serveJobsRpc = (nc: NatsConnection, handlers: JobsRpcHandlers, options?: ServeRpcOptions) => serveRpc(nc, RPC_ENDPOINTS.jobs, handlers, options);
export const serveBillingRpc = (nc: NatsConnection, handlers: BillingRpcHandlers, options?: ServeRpcOptions) => serveRpc(nc, RPC_ENDPOINTS.billing, handlers, options);
export const serveMediaRpc = (nc: NatsConnection, handlers: MediaRpcHandlers) => serveRpc(nc, RPC_ENDPOINTS.media, handlers);
export const serveWebhooksRpc = (nc: NatsConnection, handlers: WebhooksRpcHandlers, options?: ServeRpcOptions) => serveRpc(nc, RPC_ENDPOINTS.webhooks, handlers, options);

// The handler runs in the context the request carries (request_id, job, account, trace: RpcClient's
// NATS headers; the job and account its payload names fill what they lack).
async function answer(service: string, method: string, msg: Msg, handler: (request: unknown) => Promise<unknown>, isOutage?: (error: unknown) => boolean): Promise<void> {
  const name = `${service}.${method}`;
  const started = process.hrtime.bigint();
  let request: unknown;
  let undecodable: unknown;
  try {
    request = decodeJson(msg.data);
  } catch (error) {
    undecodable = error;
  }
  const span = { name, kind: SpanKind.SERVER, attributes: { 'rpc.system': 'nats', 'rpc.service': service, 'rpc.method': method } };
  const reply = await runInMessageContext(msg.headers, span, async (): Promise<RpcReply<unknown>> => {
    try {
      if (undecodable !== undefined) throw undecodable;
      const data = await handler(request);
      logger.debug(`${name} answered`);
      return { ok: true, data };
    } catch (error) {
      if (error instanceof RpcError && error.code !== 'unavailable') {
        logger.debug(`${name} answered ${error.code}: ${error.message}`);
        return { ok: false, error: { code: error.code, message: error.message } };
      }
      // Our database restarting is an outage of ours the caller waits out, not a failure of its request.
      if (isOutage?.(error)) {
        logger.warn(`${name}: a dependency is out of reach: ${String(error)}`);
        return { ok: false, error: { code: 'unavailable', message: `${service} cannot reach its database; try again` } };
      }
      logger.error(`${name} failed: ${error instanceof Error ? error.stack : String(error)}`);
      markActiveSpanFailed(error);
      return { ok: false, error: { code: 'internal', message: 'internal error' } };
    }
  }, logContextOf(request));
  observeRpcServer(service, method, reply.ok ? 'ok' : reply.error.code, Number(process.hrtime.bigint() - started) / 1e9);
  respondQuietly(msg, encodeJson(reply));
}
