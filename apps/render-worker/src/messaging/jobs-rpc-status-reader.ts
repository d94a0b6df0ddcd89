import type { JobWorkRequestedV1 } from '@vj/contracts';
import { RpcError, type JobsRpcClient } from '@vj/messaging';
import type { JobProgress, JobStatusReader } from '../processing/ports';

export class JobsRpcStatusReader implements JobStatusReader {
  constructor(private readonly rpc: Pick<JobsRpcClient, 'call'>) {}

  async currentJob(job: Pick<JobWorkRequestedV1, 'account_id' | 'job_id'>): Promise<JobProgress | null> {
    try {
      const record = await this.rpc.call('get', { version: 1, account_id: job.account_id, job_id: job.job_id });
      return { status: record.status, failedAttempts: record.failed_attempts ?? 0 };
    } catch (error) {
      if (error instanceof RpcError && error.code === 'not_found') return null;
      throw error;
    }
  }
}
