import type { JobError } from '../job/job-object';
import type { JobInputV1 } from '../job/job-input';
import type { JobOptionsByType } from '../job/job-options';
import type { JobRecordV1 } from '../job/job-record';
import type { JobStatus } from '../job/job-status';
import type { JobType } from '../job/job-type';
import type { StoredResultV1 } from '../job/stored-result';
import type { CreditEstimateV1 } from './billing-payloads';
import type { JobEventKind, ProgressStage } from './names';

// Every message that crosses a process boundary, one versioned type each. Additive changes keep the
// version; anything else is a new ...V2 type on a new subject.

export interface JobMessageBaseV1 {
  version: 1;
  job_id: string;
  account_id: string;
  job_type: JobType;
}

// vj.work.v1.<job_type>: jobs service -> render workers.
export interface JobWorkRequestedV1<T extends JobType = JobType> extends JobMessageBaseV1 {
  job_type: T;
  input: JobInputV1;
  options: JobOptionsByType[T];
  requested_at: string;
}

// vj.reports.job.v1.*: render worker -> jobs service.
export interface JobStartedReportV1 extends JobMessageBaseV1 {
  attempt: number;
  worker_id: string;
  // ISO 8601: when this attempt's own limits (fetch, processing, upload) run out. The jobs service moves
  // the job's deadline here. Absent from reports of older workers.
  deadline_at?: string;
}

// An attempt failed for a reason of ours; failed_attempts counts it (the jobs service keeps the
// largest it hears, so a duplicate changes nothing).
export interface JobRetryingReportV1 extends JobMessageBaseV1 {
  attempt: number;
  failed_attempts: number;
  reason: string;
}

export interface JobSucceededReportV1 extends JobMessageBaseV1 {
  result: StoredResultV1;
  media_duration_seconds: number;
}

export interface JobFailedReportV1 extends JobMessageBaseV1 {
  error: JobError;
}

// vj.events.job.v1.*: jobs service -> any internal consumer, published through the outbox.
interface JobEventBaseV1 extends JobMessageBaseV1 {
  event_id: string;
  occurred_at: string;
}

export interface JobCreatedEventV1 extends JobEventBaseV1 {
  options: JobOptionsByType[JobType];
  // The quote given on the create response; billing holds it when the job starts. Absent from events of
  // jobs created before billing: billing then quotes the job type's maximum duration.
  estimate?: CreditEstimateV1;
  // The create's webhook_url: the webhook delivery service makes it an endpoint of this job only.
  webhook_url?: string;
}

export interface JobCompletedEventV1 extends JobEventBaseV1 {
  result: StoredResultV1;
  media_duration_seconds: number;
}

export interface JobFailedEventV1 extends JobEventBaseV1 {
  error: JobError;
}

export type JobCancelledEventV1 = JobEventBaseV1;

// The first attempt began on a worker.
export interface JobStartedEventV1 extends JobEventBaseV1 {
  attempt: number;
}

// vj.updates.job.v1.<job_id>: one job's updates, in the order they happened. A state update follows
// every job event but created (jobs service, outbox); progress comes from the worker running the job.
interface JobUpdateBaseV1 extends JobMessageBaseV1 {
  occurred_at: string;
}

export interface JobStateUpdateV1 extends JobUpdateBaseV1 {
  kind: 'state';
  event: Exclude<JobEventKind, 'created'>;
  status: JobStatus;
}

// progress: the whole job's fraction done, 0 to 1, across its stages; a retry starts again from 0.
export interface JobProgressUpdateV1 extends JobUpdateBaseV1 {
  kind: 'progress';
  stage: ProgressStage;
  progress: number;
  attempt: number;
}

export type JobUpdateV1 = JobStateUpdateV1 | JobProgressUpdateV1;

// Core NATS request/reply with the jobs service (vj.rpc.jobs.v1.*).
export type RpcReply<T> = { ok: true; data: T } | { ok: false; error: { code: RpcErrorCode; message: string } };
// unavailable: the service could not reach its own database; the call may be made again (the gateway says 503).
export type RpcErrorCode = 'not_found' | 'conflict' | 'invalid_request' | 'rate_limited' | 'internal' | 'unavailable';

export interface CreateJobRequestV1<T extends JobType = JobType> {
  version: 1;
  account_id: string;
  job_type: T;
  input: JobInputV1;
  options: JobOptionsByType[T];
  // The quote the gateway obtained from billing; stored with the job and carried by its created event.
  estimate?: CreditEstimateV1;
  // Present when the client sent Idempotency-Key; request_hash fingerprints the body.
  idempotency?: { key: string; request_hash: string };
  // The account's cap on PROCESSING jobs: a create past it is refused with rate_limited. Absent: no cap.
  max_processing_jobs?: number;
  // Carried by the job's created event to the webhook delivery service; never part of the job object.
  webhook_url?: string;
}
export interface CreateJobReplyV1 {
  job: JobRecordV1;
  // True when an Idempotency-Key matched an earlier create: the job is the original one.
  replayed: boolean;
}

// An Idempotency-Key's earlier answer, looked up before a create is quoted: null when the key is new.
export interface ReplayJobRequestV1 {
  version: 1;
  account_id: string;
  idempotency: { key: string; request_hash: string };
}

export interface GetJobRequestV1 {
  version: 1;
  account_id: string;
  job_id: string;
  job_type?: JobType;
}

export interface ListJobsRequestV1 {
  version: 1;
  account_id: string;
  job_type?: JobType;
  status?: JobStatus;
  limit: number;
  cursor?: string;
}
export interface ListJobsReplyV1 {
  jobs: JobRecordV1[];
  next_cursor: string | null;
}

export interface CancelJobRequestV1 {
  version: 1;
  account_id: string;
  job_id: string;
  job_type?: JobType;
}

// DELETE /v1/{type}/{job_id}: a final job's files are deleted at once and the job reads as not found
// from then on (decision 0024). Deleting it again changes nothing.
export interface DeleteJobRequestV1 {
  version: 1;
  account_id: string;
  job_id: string;
  job_type?: JobType;
}
export interface DeleteJobReplyV1 {
  deleted_at: string;
}

// An account suspended by an operator: every job of it still PROCESSING is cancelled (nothing charged).
export interface CancelAccountJobsRequestV1 {
  version: 1;
  account_id: string;
}
export interface CancelAccountJobsReplyV1 {
  cancelled: number;
}

// vj.dead.v1.<consumer>: a message its consumer gave up on, as it was, and why.
export interface DeadLetterRecordV1 {
  version: 1;
  stream: string;
  consumer: string;
  subject: string;
  stream_seq: number;
  // The message as decoded; for an undecodable one, its bytes as UTF-8 text.
  payload: unknown;
  deliveries: number;
  // last-attempt: the handler failed on the final delivery; max-deliveries: it never settled (crash, hang);
  // undecodable: it is not JSON, so no handler could run (kept only, never replayed).
  reason: 'last-attempt' | 'max-deliveries' | 'undecodable';
  error: string;
  dead_at: string;
}

// vj.health.v1.<service>: the gateway's readiness probe of each service.
export interface HealthReplyV1 {
  version: 1;
  service: string;
  instance: string;
  ready: boolean;
}
