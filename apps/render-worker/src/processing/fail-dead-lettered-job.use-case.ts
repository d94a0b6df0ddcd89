import { Inject, Injectable, Logger } from '@nestjs/common';
import type { JobWorkRequestedV1 } from '@vj/contracts';
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
    const job = letter.payload as Partial<JobWorkRequestedV1> | null;
    if (typeof job?.job_id !== 'string' || typeof job.account_id !== 'string' || typeof job.job_type !== 'string') {
      this.logger.error(`dropping a dead letter that is not a job (${letter.subject} #${letter.streamSeq}): ${letter.error}`);
      return;
    }
    this.logger.error(`job ${job.job_id} gave up after ${letter.deliveries} deliveries (${letter.reason}): ${letter.error}`);
    await this.reports.publish(
      'failed',
      {
        version: 1,
        job_id: job.job_id,
        account_id: job.account_id,
        job_type: job.job_type,
        error: { code: 'generation_failed', message: `Processing never finished: the work was delivered ${letter.deliveries} times`, details: null },
      },
      // Same id as the use case's own last-attempt report, so at most one of them lands.
      reportMsgId(job.job_id, 'failed', letter.deliveries),
    );
  }
}
