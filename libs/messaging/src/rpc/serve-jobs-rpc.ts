import { Logger } from '@nestjs/common';
import { queueGroups, RPC_METHODS, subjects, type JobsRpc, type JobsRpcMethod, type RpcReply } from '@vj/contracts';
import type { Msg, NatsConnection, Subscription } from 'nats';
import { decodeJson, encodeJson } from '../json-codec';
import { respondQuietly } from './respond-quietly';
import { RpcError } from './rpc-error';

// One handler per method, enforced by the type: a missing method does not compile.
export type JobsRpcHandlers = { [M in JobsRpcMethod]: (request: JobsRpc[M]['request']) => Promise<JobsRpc[M]['reply']> };

export interface RpcService {
  close(): Promise<void>;
}

const logger = new Logger('JobsRpc');

// A plain queue-group subscription rather than Nest's NATS transport: the client speaks a small typed
// envelope (RpcReply) instead of Nest's {pattern, id, data} packets, so any NATS client can call it.
export function serveJobsRpc(nc: NatsConnection, handlers: JobsRpcHandlers): RpcService {
  const subscriptions: Subscription[] = RPC_METHODS.map((method) => {
    if (typeof handlers[method] !== 'function') throw new Error(`no jobs RPC handler for "${method}"`);
    return nc.subscribe(subjects.jobsRpc(method), {
      queue: queueGroups.jobsRpc(),
      callback: (error, msg) => {
        if (error) return logger.error(`jobs.${method} subscription: ${error.message}`);
        void answer(method, msg, handlers[method] as (request: unknown) => Promise<unknown>);
      },
    });
  });
  return {
    async close() {
      await Promise.all(subscriptions.map((sub) => (sub.isClosed() ? undefined : sub.drain())));
    },
  };
}

async function answer(method: JobsRpcMethod, msg: Msg, handler: (request: unknown) => Promise<unknown>): Promise<void> {
  let reply: RpcReply<unknown>;
  try {
    reply = { ok: true, data: await handler(decodeJson(msg.data)) };
  } catch (error) {
    if (error instanceof RpcError && error.code !== 'unavailable') {
      reply = { ok: false, error: { code: error.code, message: error.message } };
    } else {
      logger.error(`jobs.${method} failed: ${error instanceof Error ? error.stack : String(error)}`);
      reply = { ok: false, error: { code: 'internal', message: 'internal error' } };
    }
  }
  respondQuietly(msg, encodeJson(reply));
}
