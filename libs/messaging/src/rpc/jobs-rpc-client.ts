import { subjects, type JobsRpc, type JobsRpcMethod, type RpcReply } from '@vj/contracts';
import type { NatsConnection } from 'nats';
import { decodeJson, encodeJson } from '../json-codec';
import { RpcError } from './rpc-error';

// Typed request/reply with the jobs service over core NATS.
export class JobsRpcClient {
  constructor(
    private readonly nc: NatsConnection,
    private readonly defaultTimeoutMs = 5_000,
  ) {}

  async call<M extends JobsRpcMethod>(method: M, request: JobsRpc[M]['request'], timeoutMs = this.defaultTimeoutMs): Promise<JobsRpc[M]['reply']> {
    let data: Uint8Array;
    try {
      ({ data } = await this.nc.request(subjects.jobsRpc(method), encodeJson(request), { timeout: timeoutMs }));
    } catch (error) {
      // No responders, timeout or a closed connection all mean the same to the caller: try later.
      throw new RpcError('unavailable', `jobs.${method}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const reply = decodeJson<RpcReply<JobsRpc[M]['reply']>>(data);
    if (!reply.ok) throw new RpcError(reply.error.code, reply.error.message);
    return reply.data;
  }
}
