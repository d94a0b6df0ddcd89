import { RPC_ENDPOINTS, type BillingRpc, type JobsRpc, type MediaRpc, type RpcEndpoint, type RpcReply, type WebhooksRpc } from '@vj/contracts';
import { addToLogContext, inSpan, logContextOf, outgoingHeaders, SpanKind } from '@vj/observability';
import type { NatsConnection } from 'nats';
import { decodeJson, encodeJson } from '../json-codec';
import { ReplyInbox } from './reply-inbox';
import { RpcError } from './rpc-error';

type Catalogue<M extends string> = Record<M, { request: unknown; reply: unknown }>;

// Typed request/reply with one service's RPC catalogue over core NATS. A request carries the current
// request_id, the job and account it names and the trace context in NATS headers (serveRpc restores them).
export class RpcClient<M extends string, C extends Catalogue<M>> {
  constructor(
    private readonly nc: NatsConnection,
    private readonly endpoint: RpcEndpoint<M>,
    private readonly defaultTimeoutMs = 5_000,
  ) {}

  call<K extends M>(method: K, request: C[K]['request'], timeoutMs = this.defaultTimeoutMs): Promise<C[K]['reply']> {
    const name = `${this.endpoint.service}.${method}`;
    return inSpan({ name, kind: SpanKind.CLIENT, attributes: { 'rpc.system': 'nats', 'rpc.service': this.endpoint.service, 'rpc.method': method } }, async () => {
      let data: Uint8Array;
      try {
        const headers = outgoingHeaders(request);
        data = await ReplyInbox.of(this.nc).request(this.endpoint.subject(method), encodeJson(request), { timeout: timeoutMs, headers });
      } catch (error) {
        // No responders, timeout or a closed connection all mean the same to the caller: try later.
        throw new RpcError('unavailable', `${name}: ${error instanceof Error ? error.message : String(error)}`);
      }
      const reply = decodeJson<RpcReply<C[K]['reply']>>(data);
      if (!reply.ok) throw new RpcError(reply.error.code, reply.error.message);
      // A reply naming one job (a create) puts it in the caller's context: the request's later log lines,
      // its access log line included, name the job it made.
      addToLogContext(logContextOf(reply.data));
      return reply.data;
    });
  }
}

export class JobsRpcClient extends RpcClient<keyof JobsRpc, JobsRpc> {
  constructor(nc: NatsConnection, defaultTimeoutMs?: number) {
    super(nc, RPC_ENDPOINTS.jobs, defaultTimeoutMs);
  }
}

export class BillingRpcClient extends RpcClient<keyof BillingRpc, BillingRpc> {
  constructor(nc: NatsConnection, defaultTimeoutMs?: number) {
    super(nc, RPC_ENDPOINTS.billing, defaultTimeoutMs);
  }
}

export class MediaRpcClient extends RpcClient<keyof MediaRpc, MediaRpc> {
  constructor(nc: NatsConnection, defaultTimeoutMs?: number) {
    super(nc, RPC_ENDPOINTS.media, defaultTimeoutMs);
  }
}

export class WebhooksRpcClient extends RpcClient<keyof WebhooksRpc, WebhooksRpc> {
  constructor(nc: NatsConnection, defaultTimeoutMs?: number) {
    super(nc, RPC_ENDPOINTS.webhooks, defaultTimeoutMs);
  }
}
