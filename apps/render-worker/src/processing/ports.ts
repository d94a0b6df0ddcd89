import type { JobReportKind, JobStatus, JobType, JobWorkRequestedV1, ReportPayloads, SegmentPlanV1, StoredExportSourceV1, StoredQualityV1 } from '@vj/contracts';
import type { FetchedInput } from '../input/fetched-input';
import type { MediaProbe } from '../media/parse-probe';

// The job processor's I/O, behind interfaces so it unit-tests with fakes.

// The jobs service's view of a job: its status and how many attempts failed for a reason of ours.
export interface JobProgress {
  status: JobStatus;
  failedAttempts: number;
}

// The jobs service's current view of a job; null when it does not know the job.
export interface JobStatusReader {
  currentJob(job: Pick<JobWorkRequestedV1, 'account_id' | 'job_id'>): Promise<JobProgress | null>;
}
export const JOB_STATUS_READER = Symbol('JobStatusReader');

export interface ReportSink {
  publish<K extends JobReportKind>(kind: K, report: ReportPayloads[K], msgId: string): Promise<void>;
}
export const REPORT_SINK = Symbol('ReportSink');

// Brings a job's input video onto local disk.
export interface InputSource {
  fetch(job: JobWorkRequestedV1, destPath: string, signal: AbortSignal): Promise<FetchedInput>;
}
export const INPUT_SOURCE = Symbol('InputSource');

// A fetched input as it will be processed and charged: its duration (the header's when its packets
// confirm it, else theirs) and how many pictures it holds. Counting stops a second past maxSeconds.
export interface MeasuredInput {
  seconds: number;
  videoFrames: number;
  // The fenced probe taken to measure it: the processor opens the input with it instead of probing again.
  probe?: MediaProbe;
}

export interface InputMeasurer {
  measure(path: string, maxSeconds: number, signal: AbortSignal): Promise<MeasuredInput>;
}
export const INPUT_MEASURER = Symbol('InputMeasurer');

// Billing's hold for the job, raised to the price of the measured input before any processing; throws
// the job's insufficient_credits failure when the account cannot cover it (decision 0023).
export interface JobFunding {
  cover(job: JobWorkRequestedV1, durationSeconds: number): Promise<void>;
}
export const JOB_FUNDING = Symbol('JobFunding');

export interface ResultStore {
  putFile(key: string, path: string, contentType: string): Promise<{ size: number }>;
  // Deletes an object; a missing one is not an error.
  remove(key: string): Promise<void>;
}
export const RESULT_STORE = Symbol('ResultStore');

export interface ProducedFile {
  path: string;
  fileName: string;
  contentType: string;
}

// What a job keeps beside its result so that an export can deliver it again without the model
// (decisions 0093, 0094): its files, by the field of its StoredExportSourceV1 each fills, and the rest.
export interface KeptForExports {
  files: { file: ProducedFile; source?: ProducedFile };
  details: DistributiveOmit<StoredExportSourceV1, 'file' | 'source' | 'duration_seconds'>;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export interface ProcessorOutput {
  files: ProducedFile[];
  durationSeconds: number;
  kept?: KeptForExports;
  // What the processing measured of its own work: the job's quality report (decision 0096).
  quality?: StoredQualityV1;
}

export interface ProcessorRun<T extends JobType> {
  job: JobWorkRequestedV1<T>;
  inputPath: string;
  workDir: string;
  signal: AbortSignal;
  // The input's probe from its measuring, when there was one.
  probe?: MediaProbe;
  // An export's: what its source job kept (job.input.source says what it is).
  exportSourcePath?: string;
  // How much of the processing is done, 0 to 1, as the processor learns it.
  onProgress?: (fraction: number) => void;
}

// A long video cut into segments that many workers run (decision 0101), instead of processed here.
export interface PiecePlan {
  frames: number;
  fps: number;
  segments: SegmentPlanV1[];
}

// One per job type: the media work itself.
export interface JobTypeProcessor<T extends JobType = JobType> {
  // Past it the job fails with `timeout`.
  readonly timeLimitMs: number;
  // The longest input the job type takes; refusal is the job's failure for a measured input it does
  // not take (too long, too many pictures, a result too large), checked before any processing or charge.
  readonly maxSeconds: number;
  refusal(measured: MeasuredInput, job: JobWorkRequestedV1<T>): Error | null;
  // Throws the job's failure when its options cannot be served here, before the input is fetched.
  check?(job: JobWorkRequestedV1<T>): void;
  run(work: ProcessorRun<T>): Promise<ProcessorOutput>;
  // Called with the measured and paid-for input before run: a plan means the job is run as pieces.
  plan?(job: JobWorkRequestedV1<T>, inputPath: string, measured: MeasuredInput, signal: AbortSignal): Promise<PiecePlan | null>;
  // Called once a delivery is done with, when the worker would otherwise idle: work put off so it
  // does not take cores from a job (booting processes the next job will use).
  afterDelivery?(): void;
}

// A mapped type, so a job type without a processor does not compile.
export type JobProcessors = { [T in JobType]: JobTypeProcessor<T> };
export const JOB_PROCESSORS = Symbol('JobProcessors');

export interface WorkerSettings {
  workerId: string;
  // Attempts that may fail for a reason of ours before the job fails with generation_failed.
  maxFailedAttempts: number;
  // Parent of the per-job temporary directories.
  workDir: string;
  // The fetch's time limit and the room left for the upload: with the job type's processing limit, they
  // make the deadline a started report announces.
  transloadTimeoutMs: number;
  uploadMarginMs: number;
  // Progress updates within a stage come at most this often.
  progressIntervalMs: number;
}
export const WORKER_SETTINGS = Symbol('WorkerSettings');
