import type { JobWorkRequestedV1 } from '@vj/contracts';
import type { BillingRpcClient } from '@vj/messaging';
import { JobFailure } from '../errors/job-failure';
import type { JobFunding } from '../processing/ports';

// JobFunding over billing's NATS RPC (vj.rpc.billing.v1.extend_hold). Billing unreachable, or the job
// holding nothing any more (it ended meanwhile), is our error: the attempt is retried, and a later one
// finds the job final and skips it.
export class BillingRpcFunding implements JobFunding {
  constructor(private readonly billing: Pick<BillingRpcClient, 'call'>) {}

  async cover(job: JobWorkRequestedV1, durationSeconds: number): Promise<void> {
    const reply = await this.billing.call('extend_hold', {
      version: 1,
      job_id: job.job_id,
      account_id: job.account_id,
      job_type: job.job_type,
      duration_seconds: durationSeconds,
    });
    if (reply.covered) return;
    throw new JobFailure('insufficient_credits', 'The account does not have the credits for the video as fetched', [
      {
        type: 'insufficient_credits',
        message: `the video lasts ${durationSeconds.toFixed(1)} s, which costs ${reply.credits_required} credits; the job's hold and the available balance make ${reply.credits_available}`,
        field: 'video_url',
      },
    ]);
  }
}
