import { Controller, Inject, Logger, UseFilters } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { CONSUMERS, subjects, type JobFailedReportV1, type JobRetryingReportV1, type JobStartedReportV1, type JobSucceededReportV1, type JobWorkRequestedV1 } from '@vj/contracts';
import { deadLetterPattern, KeepErrorsFilter, type DeadLetter, type JetStreamContext } from '@vj/messaging';
import { workerDeadline } from '../domain/job-deadline';
import { JobsService } from '../jobs/jobs.service';

// Worker reports move the job; duplicates and late reports for final jobs are acked and ignored.
@Controller()
@UseFilters(KeepErrorsFilter)
export class ReportsController {
  private readonly logger = new Logger(ReportsController.name);

  constructor(@Inject(JobsService) private readonly jobs: JobsService) {}

  @EventPattern(subjects.report('started'))
  async started(@Payload() report: JobStartedReportV1): Promise<void> {
    // The worker's deadline replaces the one from create: its limits count from when it started.
    await this.jobs.applyCommand(report.job_id, { kind: 'start', attempt: report.attempt, deadlineAt: workerDeadline(report) });
  }

  @EventPattern(subjects.report('retrying'))
  async retrying(@Payload() report: JobRetryingReportV1): Promise<void> {
    await this.jobs.applyCommand(report.job_id, { kind: 'record_failure', failedAttempts: report.failed_attempts });
  }

  @EventPattern(subjects.report('succeeded'))
  async succeeded(@Payload() report: JobSucceededReportV1, @Ctx() ctx: JetStreamContext): Promise<void> {
    const outcome = await this.jobs.applyCommand(report.job_id, { kind: 'succeed', result: report.result, mediaDurationSeconds: report.media_duration_seconds });
    if (outcome === 'ignored') this.logger.log(`ignored succeeded report for job ${report.job_id} (attempt ${ctx.attempt})`);
  }

  @EventPattern(subjects.report('failed'))
  async failed(@Payload() report: JobFailedReportV1): Promise<void> {
    await this.jobs.applyCommand(report.job_id, { kind: 'fail', error: report.error });
  }

  // A report we could not apply after every retry: the stale-job sweeper will still finish the job.
  @EventPattern(deadLetterPattern(CONSUMERS.jobsReports))
  reportDeadLetter(@Payload() deadLetter: DeadLetter): void {
    this.logger.error(`report ${deadLetter.subject} dropped after ${deadLetter.deliveries} deliveries: ${deadLetter.error}`);
  }

  // The render workers never settled this job's work message: fail the job so it is never lost.
  @EventPattern(deadLetterPattern(CONSUMERS.renderWorker))
  async workDeadLetter(@Payload() deadLetter: DeadLetter<JobWorkRequestedV1>): Promise<void> {
    await this.jobs.failJob(deadLetter.payload.job_id, {
      code: 'generation_failed',
      message: `processing never finished: the work was delivered ${deadLetter.deliveries} times`,
    });
  }
}
