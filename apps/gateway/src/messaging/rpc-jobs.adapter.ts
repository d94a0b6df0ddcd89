import { RpcError, type JobsRpcClient } from '@vj/messaging';
import type { JobsRpc, JobsRpcMethod } from '@vj/contracts';
import { JobsServiceError, type JobsPort } from '../jobs';

// Binds the JobsPort to the jobs service's NATS RPC; RpcError codes become JobsServiceError codes.
export class RpcJobsAdapter implements JobsPort {
  constructor(
    private readonly client: JobsRpcClient,
    private readonly timeoutMs: number,
  ) {}

  create(request: JobsRpc['create']['request']) {
    return this.call('create', request);
  }

  replay(request: JobsRpc['replay']['request']) {
    return this.call('replay', request);
  }

  get(request: JobsRpc['get']['request']) {
    return this.call('get', request);
  }

  list(request: JobsRpc['list']['request']) {
    return this.call('list', request);
  }

  cancel(request: JobsRpc['cancel']['request']) {
    return this.call('cancel', request);
  }

  cancelAccount(request: JobsRpc['cancel_account']['request']) {
    return this.call('cancel_account', request);
  }

  delete(request: JobsRpc['delete']['request']) {
    return this.call('delete', request);
  }

  private async call<M extends JobsRpcMethod>(method: M, request: JobsRpc[M]['request']): Promise<JobsRpc[M]['reply']> {
    try {
      return await this.client.call(method, request, this.timeoutMs);
    } catch (error) {
      if (error instanceof RpcError) throw new JobsServiceError(error.code, error.message);
      throw error;
    }
  }
}
