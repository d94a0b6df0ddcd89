import { Inject, Injectable, Logger } from '@nestjs/common';
import { isFinalJobStatus, type JobWorkRequestedV1 } from '@vj/contracts';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { AttemptFailures, type Attempt, type JobOutcome } from './attempt-failures';
import { AttemptReports } from './attempt-reports';
import { CancellationRegistry } from './cancellation-registry';
import { untilReachable } from './dependency-outage';
import { InputPreparation } from './input-preparation';
import {
  JOB_PROCESSORS,
  JOB_STATUS_READER,
  WORKER_SETTINGS,
  type JobProcessors,
  type JobStatusReader,
  type JobTypeProcessor,
  type PiecePlan,
  type ProcessorOutput,
  type WorkerSettings,
} from './ports';
import { PROGRESS_SINK, ProgressReporter, type ProgressSink } from './progress-reporter';
import { ResultUploader } from './result-uploader';
import { storedResult } from './stored-result';
import { withTimeLimit } from './with-time-limit';

export interface Delivery {
  // 1-based delivery count of the work message.
  attempt: number;
  // JetStream's bound on deliveries (WORK_MAX_DELIVER): a backstop against a job that kills its worker.
  isLastDelivery: boolean;
  // Aborted when the delivery ran past the consumer's maxProcessingMs (MaxProcessingTimeExceeded).
  signal?: AbortSignal;
}

export type { JobOutcome } from './attempt-failures';

interface PlannedJob {
  plan: PiecePlan;
  inputPath: string;
  // Measured and paid for.
  seconds: number;
}

// Runs one delivery of a work message: input (fetched, moderated, paid for), processing, upload,
// reports. Resolves when the message is done with (ack); throws when our own error deserves another
// attempt (nak), except on the last attempt, where the job fails instead. Only our own processing
// failures are attempts (decision 0027): a shutdown hands the message back at once, an outage of the
// jobs service or billing is waited out, and neither counts.
@Injectable()
export class ProcessJobUseCase {
  private readonly logger = new Logger(ProcessJobUseCase.name);
  private readonly failures: AttemptFailures;

  constructor(
    @Inject(JOB_STATUS_READER) private readonly statuses: JobStatusReader,
    private readonly reports: AttemptReports,
    private readonly inputs: InputPreparation,
    @Inject(JOB_PROCESSORS) private readonly processors: JobProcessors,
    private readonly uploader: ResultUploader,
    @Inject(WORKER_SETTINGS) private readonly settings: WorkerSettings,
    private readonly cancellations: CancellationRegistry,
    @Inject(PROGRESS_SINK) private readonly progressSink: ProgressSink,
  ) {
    this.failures = new AttemptFailures(reports, settings.maxFailedAttempts);
  }

  async execute(job: JobWorkRequestedV1, delivery: Delivery): Promise<JobOutcome> {
    // Registered before the status check, so a cancel event in between is not missed.
    const registration = this.cancellations.register(job.job_id);
    const signal = delivery.signal ? AbortSignal.any([registration.signal, delivery.signal]) : registration.signal;
    const attempt: Attempt = { number: delivery.attempt, failedBefore: 0, isLastDelivery: delivery.isLastDelivery };
    try {
      return await this.run(job, attempt, signal);
    } catch (error) {
      return await this.failures.handle(job, attempt, signal, error);
    } finally {
      registration.release();
      this.processors[job.job_type]?.afterDelivery?.();
    }
  }

  private async run(job: JobWorkRequestedV1, attempt: Attempt, signal: AbortSignal): Promise<JobOutcome> {
    const current = await untilReachable(`job ${job.job_id}: the jobs service`, () => this.statuses.currentJob(job), signal, this.logger);
    if (current === null || isFinalJobStatus(current.status)) {
      this.logger.log(`job ${job.job_id} is ${current?.status ?? 'unknown to the jobs service'}: skipping it`);
      return 'skipped';
    }
    attempt.failedBefore = current.failedAttempts;
    signal.throwIfAborted();
    const processor = this.processors[job.job_type] as JobTypeProcessor;
    await this.reports.started(job, attempt.number, this.deadline(processor));
    const progress = new ProgressReporter(job, attempt.number, this.progressSink, { intervalMs: this.settings.progressIntervalMs });
    const workDir = await mkdtemp(join(this.settings.workDir, `job-${job.job_id}-`));
    try {
      const output = await this.produce(job, processor, workDir, signal, progress);
      if ('plan' in output) return await this.planned(job, attempt, processor, output, signal);
      if (!(await this.stillProcessing(job))) return 'stopped';
      progress.stage('uploading');
      const { stored, files, exportSource } = await this.uploader.uploadWithKept(job, attempt.number, output, signal);
      await progress.done();
      // A cancel that came during the upload: nothing of it stays, and no success is reported.
      if (signal.aborted) {
        await this.uploader.remove(job, stored.map((file) => file.object_key));
        signal.throwIfAborted();
      }
      // Sent again in place while NATS is out of reach (one message id: stored once): handed back, the
      // whole job would be processed again.
      const result = storedResult(job.job_type, files, exportSource, output.quality);
      await untilReachable(`job ${job.job_id}: its success report`, () => this.reports.succeeded(job, attempt.number, result, output.durationSeconds), signal, this.logger);
      return 'succeeded';
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  }

  // A long job's pieces read its input from the bucket; the jobs service sends them from the plan.
  private async planned(job: JobWorkRequestedV1, attempt: Attempt, processor: JobTypeProcessor, { plan, inputPath, seconds }: PlannedJob, signal: AbortSignal): Promise<JobOutcome> {
    const inputKey = await this.uploader.storePieceInput(job, inputPath);
    const report = { input_key: inputKey, frames: plan.frames, fps: plan.fps, media_duration_seconds: seconds, deadline_at: this.deadline(processor).toISOString(), segments: plan.segments };
    await untilReachable(`job ${job.job_id}: its plan`, () => this.reports.planned(job, attempt.number, report), signal, this.logger);
    this.logger.log(`job ${job.job_id}: ${seconds.toFixed(1)} s planned as ${plan.segments.length} segments`);
    return 'planned';
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
      status = (await this.statuses.currentJob(job))?.status ?? null;
    } catch (error) {
      this.logger.warn(`job ${job.job_id}: status check before upload failed, uploading anyway: ${String(error)}`);
      return true;
    }
    if (status === 'PROCESSING') return true;
    this.logger.log(`job ${job.job_id} became ${status ?? 'unknown to the jobs service'} while processing: not uploading its results`);
    return false;
  }

  // The duration charged is the one measured and paid for before processing: what was processed.
  private async produce(job: JobWorkRequestedV1, processor: JobTypeProcessor, workDir: string, signal: AbortSignal, progress: ProgressReporter): Promise<ProcessorOutput | PlannedJob> {
    processor.check?.(job);
    progress.stage('fetching');
    const input = await this.inputs.fetch(job, join(workDir, 'input'), signal);
    return withTimeLimit(processor.timeLimitMs, signal, async (limited) => {
      progress.stage('probing');
      const measured = await this.inputs.payFor(job, processor, input, limited);
      const plan = await processor.plan?.(job, input.path, measured, limited);
      if (plan) return { plan, inputPath: input.path, seconds: measured.seconds };
      progress.stage('processing');
      const output = await processor.run({
        job,
        inputPath: input.path,
        workDir,
        signal: limited,
        probe: measured.probe,
        exportSourcePath: input.exportSourcePath,
        onProgress: (fraction) => progress.within(fraction),
      });
      return { ...output, durationSeconds: measured.seconds };
    });
  }
}
