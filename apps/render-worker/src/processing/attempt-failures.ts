import { Logger } from '@nestjs/common';
import type { JobError } from '@vj/contracts';
import { HandBack } from '@vj/messaging';
import type { AttemptReports, ReportedJob } from './attempt-reports';
import { failedAttempt } from './failed-attempt';

// One delivery, as its use case learns about it: failedBefore comes from the jobs service's status check.
export interface Attempt {
  number: number;
  failedBefore: number;
  isLastDelivery: boolean;
}

// stopped: the job became final elsewhere (failed by the sweeper, done by another worker) while it ran.
// planned: a long job was cut into pieces that other deliveries run (decision 0101).
export type JobOutcome = 'skipped' | 'cancelled' | 'stopped' | 'succeeded' | 'failed' | 'planned';

// After a dependency went away mid-run, the message comes back after this.
const OUTAGE_REDELIVERY_MS = 5_000;

// What a delivery that threw does (decision 0027), for a whole job's work and for a piece of one alike:
// resolves with the outcome when the message is done with, throws when it goes back to the stream.
export class AttemptFailures {
  private readonly logger = new Logger(AttemptFailures.name);

  constructor(
    private readonly reports: AttemptReports,
    private readonly maxFailedAttempts: number,
  ) {}

  async handle(job: ReportedJob, attempt: Attempt, signal: AbortSignal, error: unknown, what = `job ${job.job_id}`): Promise<JobOutcome> {
    const outcome = failedAttempt(signal.aborted ? signal.reason : undefined, error, attempt, this.maxFailedAttempts);
    const delivery = `${what} delivery ${attempt.number}`;
    switch (outcome.kind) {
      case 'ended':
        this.logger.log(`${what}: the job became ${outcome.reason.status} while processing; stopped`);
        return outcome.reason.status === 'CANCELLED' ? 'cancelled' : 'stopped';
      case 'abandoned':
        this.logger.warn(`${delivery} handed back: ${outcome.reason.message}`);
        throw outcome.reason;
      case 'timed_out':
        this.logger.warn(`${delivery}: ${outcome.reason.message}`);
        await this.fail(job, attempt, { code: 'timeout', message: 'processing exceeded the time limit of the job type', details: null });
        return 'failed';
      case 'outage':
        this.logger.warn(`${delivery}: a dependency is unavailable (${String(error)}); handed back`);
        throw new HandBack(`a dependency is unavailable: ${String(error)}`, OUTAGE_REDELIVERY_MS);
      case 'retry':
        if (outcome.unexpected) this.logger.error(`${delivery}: ${describe(error)}`);
        return this.retry(job, attempt, error, what);
      case 'fail':
        if (outcome.unexpected) this.logger.error(`${delivery}: ${describe(error)}`);
        else this.logger.log(`${what} failed with ${outcome.error.code}: ${outcome.error.message}`);
        await this.fail(job, attempt, outcome.error);
        return 'failed';
    }
  }

  // Counts the failed attempt with the jobs service, then throws so the message is retried after its backoff.
  private async retry(job: ReportedJob, attempt: Attempt, error: unknown, what: string): Promise<never> {
    const failed = attempt.failedBefore + 1;
    this.logger.warn(`${what}: attempt ${failed} of ${this.maxFailedAttempts} failed, retrying`);
    await this.reports.retrying(job, attempt.number, failed, error instanceof Error ? error.message : String(error));
    throw error;
  }

  private fail(job: ReportedJob, attempt: Attempt, error: JobError): Promise<void> {
    return this.reports.failed(job, attempt.number, error);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
