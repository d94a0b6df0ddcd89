import { Inject, Injectable, Logger } from '@nestjs/common';
import { isJobType, type JobWorkRequestedV1 } from '@vj/contracts';
import type { DeadLetter } from '@vj/messaging';
import { REPORT_SINK, type ReportSink } from './ports';
import { reportMsgId } from './stored-result';

// Backstop for work JetStream gave up on without a report: the last attempt threw (the failed report
// could not be published) or the worker crashed or hung on it. The job must not stay PROCESSING.
@Injectable()
export class FailDeadLetteredJobUseCase {
  private readonly logger = new Logger(FailDeadLetteredJobUseCase.name);

  constructor(@Inject(REPORT_SINK) private readonly reports: ReportSink) {}

  async execute(letter: DeadLetter): Promise<void> {
    const job = jobNamedBy(letter.payload);
    if (!job) {
      this.logger.error(`dropping a dead letter that is not a job (${letter.subject} #${letter.streamSeq}): ${letter.error}`);
      return;
    }
    this.logger.error(`job ${job.job_id} gave up after ${letter.deliveries} deliveries (${letter.reason}): ${letter.error}`);
    await this.fail(job, `Processing never finished: the work was delivered ${letter.deliveries} times`, letter.deliveries);
  }

  // A work message this worker cannot use (a newer gateway's, mid rolling deploy, or a damaged one) is
  // never retried, and no dead letter follows: the job it names fails now instead of waiting out
  // JOB_QUEUE_TIMEOUT_SECONDS. One that names no job is only terminated.
  async failUnusable(payload: unknown, reason: string, attempt: number): Promise<void> {
    const job = jobNamedBy(payload);
    if (!job) return;
    this.logger.error(`job ${job.job_id}: its work message cannot be used: ${reason}`);
    await this.fail(job, 'This worker could not read the job’s work; create the job again', attempt);
  }

  private async fail(job: JobNamed, message: string, attempt: number): Promise<void> {
    await this.reports.publish(
      'failed',
      { version: 1, job_id: job.job_id, account_id: job.account_id, job_type: job.job_type, error: { code: 'generation_failed', message, details: null } },
      // Same id as the use case's own last-attempt report, so at most one of them lands.
      reportMsgId(job.job_id, 'failed', attempt),
    );
  }
}

type JobNamed = Pick<JobWorkRequestedV1, 'job_id' | 'account_id' | 'job_type'>;

function jobNamedBy(payload: unknown): JobNamed | null {
  const job = payload as Partial<JobWorkRequestedV1> | null;
  return typeof job?.job_id === 'string' && typeof job.account_id === 'string' && isJobType(job.job_type) ? { job_id: job.job_id, account_id: job.account_id, job_type: job.job_type } : null;
}
