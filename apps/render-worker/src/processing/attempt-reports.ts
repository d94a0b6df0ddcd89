import { Inject, Injectable } from '@nestjs/common';
import type { JobError, JobPlannedReportV1, JobWorkRequestedV1, SegmentOutputV1, StoredResultV1 } from '@vj/contracts';

// What a report names of its job: a whole job's work message or a piece's.
export type ReportedJob = Pick<JobWorkRequestedV1, 'job_id' | 'account_id' | 'job_type'>;
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

  retrying(job: ReportedJob, attempt: number, failedAttempts: number, reason: string): Promise<void> {
    return this.sink.publish('retrying', { ...base(job), attempt, failed_attempts: failedAttempts, reason }, reportMsgId(job.job_id, 'retrying', attempt));
  }

  succeeded(job: ReportedJob, attempt: number, result: StoredResultV1, mediaDurationSeconds: number): Promise<void> {
    return this.sink.publish('succeeded', { ...base(job), result, media_duration_seconds: mediaDurationSeconds }, reportMsgId(job.job_id, 'succeeded', attempt));
  }

  failed(job: ReportedJob, attempt: number, error: JobError): Promise<void> {
    return this.sink.publish('failed', { ...base(job), error }, reportMsgId(job.job_id, 'failed', attempt));
  }

  // A long job cut into pieces instead of processed here (decision 0101).
  planned(job: ReportedJob, attempt: number, plan: Omit<JobPlannedReportV1, keyof ReturnType<typeof base> | 'attempt'>): Promise<void> {
    return this.sink.publish('planned', { ...base(job), attempt, ...plan }, reportMsgId(job.job_id, 'planned', attempt));
  }

  // A piece's report names its segment: each segment's is stored once, whichever delivery made it.
  plateStored(job: ReportedJob, index: number, plateKey: string): Promise<void> {
    return this.sink.publish('plate_stored', { ...base(job), index, plate_key: plateKey }, reportMsgId(job.job_id, 'plate_stored', index));
  }

  segmentDone(job: ReportedJob, index: number, output: SegmentOutputV1): Promise<void> {
    return this.sink.publish('segment_done', { ...base(job), index, output }, reportMsgId(job.job_id, 'segment_done', index));
  }
}

function base(job: ReportedJob) {
  return { version: 1 as const, job_id: job.job_id, account_id: job.account_id, job_type: job.job_type };
}
