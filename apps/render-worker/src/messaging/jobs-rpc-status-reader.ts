import type { JobStatus, JobWorkRequestedV1 } from '@vj/contracts';
import { RpcError, type JobsRpcClient } from '@vj/messaging';
import type { JobStatusReader } from '../processing/ports';

export class JobsRpcStatusReader implements JobStatusReader {
  constructor(private readonly rpc: Pick<JobsRpcClient, 'call'>) {}

  async currentStatus(job: Pick<JobWorkRequestedV1, 'account_id' | 'job_id'>): Promise<JobStatus | null> {
    try {
      const record = await this.rpc.call('get', { version: 1, account_id: job.account_id, job_id: job.job_id });
      return record.status;
    } catch (error) {
      if (error instanceof RpcError && error.code === 'not_found') return null;
      throw error;
    }
  }
}
