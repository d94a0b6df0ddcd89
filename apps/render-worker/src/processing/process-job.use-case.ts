import { Inject, Injectable, Logger } from '@nestjs/common';
import { isFinalJobStatus, type JobError, type JobWorkRequestedV1, type StoredFileV1 } from '@vj/contracts';
import { MaxProcessingTimeExceeded } from '@vj/messaging';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { JobFailure } from '../errors/job-failure';
import { MODERATION_POLICY, type ModerationPolicy } from '../moderation/moderation-policy';
import { CancellationRegistry, JobEnded, WorkAbandoned } from './cancellation-registry';
import { jobErrorOf } from './job-error-of';
import {
  INPUT_SOURCE,
  JOB_PROCESSORS,
  JOB_STATUS_READER,
  REPORT_SINK,
  RESULT_STORE,
  WORKER_SETTINGS,
  type InputSource,
  type JobProcessors,
  type JobStatusReader,
  type JobTypeProcessor,
  type ProducedFile,
  type ReportSink,
  type ResultStore,
  type WorkerSettings,
} from './ports';
import { reportMsgId, resultObjectKey, storedResult } from './stored-result';
import { withTimeLimit } from './with-time-limit';

export interface Delivery {
  // 1-based delivery count of the work message.
  attempt: number;
  isLastAttempt: boolean;
  // Aborted when the delivery ran past the consumer's maxProcessingMs (MaxProcessingTimeExceeded).
  signal?: AbortSignal;
}

// stopped: the job became final elsewhere (failed by the sweeper, done by another worker) while it ran.
export type JobOutcome = 'skipped' | 'cancelled' | 'stopped' | 'succeeded' | 'failed';

// Runs one delivery of a work message. Resolves when the message is done with (ack); throws when our
// own error deserves another attempt (nak), except on the last attempt, where the job fails instead.
@Injectable()
export class ProcessJobUseCase {
  private readonly logger = new Logger(ProcessJobUseCase.name);

  constructor(
    @Inject(JOB_STATUS_READER) private readonly statuses: JobStatusReader,
    @Inject(REPORT_SINK) private readonly reports: ReportSink,
    @Inject(INPUT_SOURCE) private readonly inputs: InputSource,
    @Inject(MODERATION_POLICY) private readonly moderation: ModerationPolicy,
    @Inject(JOB_PROCESSORS) private readonly processors: JobProcessors,
    @Inject(RESULT_STORE) private readonly results: ResultStore,
    @Inject(WORKER_SETTINGS) private readonly settings: WorkerSettings,
    private readonly cancellations: CancellationRegistry,
  ) {}

  async execute(job: JobWorkRequestedV1, delivery: Delivery): Promise<JobOutcome> {
    // Registered before the status check, so a cancel event in between is not missed.
    const registration = this.cancellations.register(job.job_id);
    const signal = delivery.signal ? AbortSignal.any([registration.signal, delivery.signal]) : registration.signal;
    try {
      return await this.run(job, delivery, signal);
    } catch (error) {
      return await this.handleError(job, delivery, signal, error);
    } finally {
      registration.release();
    }
  }

  private async run(job: JobWorkRequestedV1, delivery: Delivery, signal: AbortSignal): Promise<JobOutcome> {
    const status = await this.statuses.currentStatus(job);
    if (status === null || isFinalJobStatus(status)) {
      this.logger.log(`job ${job.job_id} is ${status ?? 'unknown to the jobs service'}: skipping it`);
      return 'skipped';
    }
    signal.throwIfAborted();
    const processor = this.processors[job.job_type] as JobTypeProcessor;
    await this.reports.publish(
      'started',
      { ...this.base(job), attempt: delivery.attempt, worker_id: this.settings.workerId, deadline_at: this.deadline(processor).toISOString() },
      reportMsgId(job.job_id, 'started', delivery.attempt),
    );
    const workDir = await mkdtemp(join(this.settings.workDir, `job-${job.job_id}-`));
    try {
      const files = await this.produce(job, processor, workDir, signal);
      if (!(await this.stillProcessing(job))) return 'stopped';
      const stored = await this.upload(job, files.files, signal);
      // A cancel that came during the upload: nothing of it stays, and no success is reported.
      if (signal.aborted) {
        await this.removeUploaded(job, stored.map((file) => file.object_key));
        signal.throwIfAborted();
      }
      await this.reports.publish(
        'succeeded',
        { ...this.base(job), result: storedResult(job.job_type, stored), media_duration_seconds: files.durationSeconds },
        reportMsgId(job.job_id, 'succeeded', delivery.attempt),
      );
      return 'succeeded';
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  }

  // When this attempt's own limits run out: the fetch, the job type's processing, the upload. The jobs
  // service's sweeper takes it as the job's deadline (plus its grace) from the started report on.
  private deadline(processor: JobTypeProcessor): Date {
    return new Date(Date.now() + this.settings.transloadTimeoutMs + processor.timeLimitMs + this.settings.uploadMarginMs);
  }

  // The last look before the results are stored: a job the sweeper or anyone else ended meanwhile (and
  // whose event we may have missed) uploads nothing. If the jobs service cannot answer, go on: it ignores
  // the success report of a job that is already final.
  private async stillProcessing(job: JobWorkRequestedV1): Promise<boolean> {
    let status;
    try {
      status = await this.statuses.currentStatus(job);
    } catch (error) {
      this.logger.warn(`job ${job.job_id}: status check before upload failed, uploading anyway: ${String(error)}`);
      return true;
    }
    if (status === 'PROCESSING') return true;
    this.logger.log(`job ${job.job_id} became ${status ?? 'unknown to the jobs service'} while processing: not uploading its results`);
    return false;
  }

  private async produce(job: JobWorkRequestedV1, processor: JobTypeProcessor, workDir: string, signal: AbortSignal) {
    processor.check?.(job);
    const input = await this.inputs.fetch(job, join(workDir, 'input'), signal);
    const verdict = await this.moderation.check(input);
    if (!verdict.allowed) {
      throw new JobFailure('content_moderation', 'The input was rejected by the content policy', [{ type: 'moderation', message: verdict.reason, field: 'video_url' }]);
    }
    signal.throwIfAborted();
    return withTimeLimit(processor.timeLimitMs, signal, (limited) => processor.run({ job, inputPath: input.path, workDir, signal: limited }));
  }

  // A cancelled job uploads nothing (api-v1.md, "Cancel stops the work"): the signal is checked before and
  // after each file, and on an abort (or a failed put) the files already stored are removed again.
  private async upload(job: JobWorkRequestedV1, files: ProducedFile[], signal: AbortSignal): Promise<StoredFileV1[]> {
    const stored: StoredFileV1[] = [];
    const keys: string[] = [];
    try {
      for (const file of files) {
        signal.throwIfAborted();
        const key = resultObjectKey(job.account_id, job.job_id, file.fileName);
        keys.push(key);
        const { size } = await this.results.putFile(key, file.path, file.contentType);
        stored.push({ object_key: key, content_type: file.contentType, file_name: file.fileName, file_size: size });
        signal.throwIfAborted();
      }
    } catch (error) {
      await this.removeUploaded(job, keys);
      throw error;
    }
    return stored;
  }

  // Best effort: a leftover object is only storage, never a result anyone is told about.
  private async removeUploaded(job: JobWorkRequestedV1, keys: string[]): Promise<void> {
    for (const key of keys) {
      await this.results.remove(key).catch((error: unknown) => this.logger.warn(`job ${job.job_id}: could not remove ${key}: ${String(error)}`));
    }
  }

  private async handleError(job: JobWorkRequestedV1, delivery: Delivery, signal: AbortSignal, error: unknown): Promise<JobOutcome> {
    const reason: unknown = signal.aborted ? signal.reason : undefined;
    // The jobs service already made it final (CANCELLED, FAILED, ...): nothing to report, whatever the abort broke.
    if (reason instanceof JobEnded) {
      this.logger.log(`job ${job.job_id} became ${reason.status} while processing; stopped`);
      return reason.status === 'CANCELLED' ? 'cancelled' : 'stopped';
    }
    // Shutdown: not the job's fault and not a failed attempt of ours. Never report it failed, even on the
    // last attempt: rethrown, so the message is not acked and the transport hands it back to JetStream.
    if (reason instanceof WorkAbandoned) {
      this.logger.warn(`job ${job.job_id} attempt ${delivery.attempt} abandoned: ${reason.message}`);
      throw reason;
    }
    // The delivery outlived every limit of the job (fetch, processing, upload): the job took too long.
    if (reason instanceof MaxProcessingTimeExceeded) {
      this.logger.warn(`job ${job.job_id} attempt ${delivery.attempt}: ${reason.message}`);
      await this.fail(job, delivery, { code: 'timeout', message: 'processing exceeded the time limit of the job type', details: null });
      return 'failed';
    }
    const jobError = jobErrorOf(error);
    if (jobError) {
      this.logger.log(`job ${job.job_id} failed with ${jobError.code}: ${jobError.message}`);
      await this.fail(job, delivery, jobError);
      return 'failed';
    }
    this.logger.error(`job ${job.job_id} attempt ${delivery.attempt}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    if (!delivery.isLastAttempt) throw error;
    await this.fail(job, delivery, { code: 'generation_failed', message: `Processing failed after ${delivery.attempt} attempts`, details: null });
    return 'failed';
  }

  private fail(job: JobWorkRequestedV1, delivery: Delivery, error: JobError): Promise<void> {
    return this.reports.publish('failed', { ...this.base(job), error }, reportMsgId(job.job_id, 'failed', delivery.attempt));
  }

  private base(job: JobWorkRequestedV1) {
    return { version: 1 as const, job_id: job.job_id, account_id: job.account_id, job_type: job.job_type };
  }
}
