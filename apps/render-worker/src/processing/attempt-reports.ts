import { Inject, Injectable } from '@nestjs/common';
import type { JobError, JobWorkRequestedV1, StoredResultV1 } from '@vj/contracts';
import { REPORT_SINK, WORKER_SETTINGS, type ReportSink, type WorkerSettings } from './ports';
import { reportMsgId } from './stored-result';

// The reports of one delivery to the jobs service: started, then succeeded or failed. Each Nats-Msg-Id
// names the job, the kind and the attempt, so a repeated report of the same attempt is deduplicated.
@Injectable()
export class AttemptReports {
  constructor(
    @Inject(REPORT_SINK) private readonly sink: ReportSink,
    @Inject(WORKER_SETTINGS) private readonly settings: WorkerSettings,
  ) {}

  started(job: JobWorkRequestedV1, attempt: number, deadline: Date): Promise<void> {
    return this.sink.publish(
      'started',
      { ...base(job), attempt, worker_id: this.settings.workerId, deadline_at: deadline.toISOString() },
      reportMsgId(job.job_id, 'started', attempt),
    );
  }

  retrying(job: JobWorkRequestedV1, attempt: number, failedAttempts: number, reason: string): Promise<void> {
    return this.sink.publish('retrying', { ...base(job), attempt, failed_attempts: failedAttempts, reason }, reportMsgId(job.job_id, 'retrying', attempt));
  }

  succeeded(job: JobWorkRequestedV1, attempt: number, result: StoredResultV1, mediaDurationSeconds: number): Promise<void> {
    return this.sink.publish('succeeded', { ...base(job), result, media_duration_seconds: mediaDurationSeconds }, reportMsgId(job.job_id, 'succeeded', attempt));
  }

  failed(job: JobWorkRequestedV1, attempt: number, error: JobError): Promise<void> {
    return this.sink.publish('failed', { ...base(job), error }, reportMsgId(job.job_id, 'failed', attempt));
  }
}

function base(job: JobWorkRequestedV1) {
  return { version: 1 as const, job_id: job.job_id, account_id: job.account_id, job_type: job.job_type };
}
