import {
  isFinalJobStatus,
  isJobType,
  isWebhookUrl,
  PIECED_JOB_TYPE,
  type DeleteJobRequestV1,
  type CancelAccountJobsReplyV1,
  type CancelAccountJobsRequestV1,
  type CancelJobRequestV1,
  type CreateJobReplyV1,
  type CreateJobRequestV1,
  type GetJobRequestV1,
  type JobError,
  type JobRecordV1,
  type ListJobsReplyV1,
  type ListJobsRequestV1,
} from '@vj/contracts';
import { RpcError } from '@vj/messaging';
import { randomUUID } from 'node:crypto';
import type { Job } from '../domain/job';
import { queueDeadline } from '../domain/job-deadline';
import { estimateColumns } from '../domain/job-estimate';
import { jobEventMessage, jobUpdateMessage, workMessage } from '../domain/job-messages';
import { toJobRecord } from '../domain/job-record';
import { transition, type JobChange, type JobCommand, type Transition } from '../domain/job-state-machine';
import { decodeCursor, encodeCursor, isUuid } from '@vj/database';
import type { OutboxDraft } from '@vj/outbox';
import { IdempotencyKeyTakenError, ProcessingCapReachedError, type JobStore } from './job-store';

export const IDEMPOTENCY_KEY_TTL_MS = 24 * 3600_000;

export interface JobsServiceOptions {
  // How long a job may wait for a worker to start it (the sweeper fails it with timeout after).
  queueTimeoutSeconds: number;
  now?: () => Date;
  // Called after a commit that wrote outbox rows (the relay publishes them without waiting for its poll).
  onOutboxWritten?: () => void;
  // Called after a long background removal ended, so its account's next pieces go (decision 0101); it
  // never throws: what it leaves undone, a sweep does.
  onPiecedJobEnded?: (jobId: string) => Promise<unknown>;
}

export type CommandOutcome = 'applied' | 'ignored';

// The job use cases; the RPC server, the reports and billing consumers, the dead-letter path and the
// sweeper all call these.
export class JobsService {
  private readonly now: () => Date;

  constructor(
    private readonly store: JobStore,
    private readonly options: JobsServiceOptions,
  ) {
    this.now = options.now ?? (() => new Date());
  }

  async create(request: CreateJobRequestV1): Promise<CreateJobReplyV1> {
    if (!isJobType(request.job_type)) throw new RpcError('invalid_request', `unknown job type ${String(request.job_type)}`);
    // The column is an integer: a bad quote is refused here rather than as a database error.
    const cap = request.max_processing_jobs;
    if (cap !== undefined && !(Number.isSafeInteger(cap) && cap >= 1)) throw new RpcError('invalid_request', 'max_processing_jobs must be an integer >= 1');
    const webhookUrl = request.webhook_url;
    if (webhookUrl !== undefined && !isWebhookUrl(webhookUrl)) throw new RpcError('invalid_request', 'webhook_url must be an http(s) URL of at most 2048 characters');
    const credits = request.estimate?.credits_estimated;
    if (credits !== undefined && !(Number.isSafeInteger(credits) && credits >= 0)) {
      throw new RpcError('invalid_request', 'estimate.credits_estimated must be a non-negative integer');
    }
    // No lookup of the key first: the insert claims it, and a key already held is answered below.
    const now = this.now();
    const job: Job = {
      job_id: randomUUID(),
      account_id: request.account_id,
      job_type: request.job_type,
      status: 'PROCESSING',
      input: request.input,
      options: request.options,
      result: null,
      error: null,
      ...estimateColumns(request.estimate),
      credits_charged: null,
      media_duration_seconds: null,
      attempts: 0,
      failed_attempts: 0,
      created_at: now,
      updated_at: now,
      finished_at: null,
      // Kept while billing decides: a job never funded is timed out by the sweeper like any other.
      deadline_at: queueDeadline(now, this.options.queueTimeoutSeconds),
      funded_at: null,
      deleted_at: null,
      files_purged_at: null,
      input_purged_at: null,
    };
    const idempotency = request.idempotency
      ? { key: request.idempotency.key, requestHash: request.idempotency.request_hash, expiredBefore: this.keyCutoff() }
      : null;
    try {
      // No work message yet: it goes out when billing funds the job (hold_placed).
      await this.store.insertJob({ job, outbox: [jobEventMessage('created', job, { webhook_url: webhookUrl })] }, idempotency, cap);
    } catch (error) {
      if (error instanceof ProcessingCapReachedError) {
        // The same key's first create may have taken the last place: answer with its job.
        const winner = await this.replay(request);
        if (winner) return winner;
        throw new RpcError('rate_limited', error.message);
      }
      // An earlier or concurrent create with the same key holds it: answer with its job.
      const winner = error instanceof IdempotencyKeyTakenError ? await this.replay(request) : null;
      if (winner) return winner;
      throw error;
    }
    this.options.onOutboxWritten?.();
    return { job: toJobRecord(job), replayed: false };
  }

  // The earlier answer of the request's Idempotency-Key, null when the key is new; the same key with
  // another body is a conflict.
  async replay(request: Pick<CreateJobRequestV1, 'account_id' | 'idempotency'>): Promise<CreateJobReplyV1 | null> {
    if (!request.idempotency) return null;
    const { key, request_hash } = request.idempotency;
    const existing = await this.store.findIdempotencyKey(request.account_id, key, this.keyCutoff());
    if (!existing) return null;
    if (existing.request_hash !== request_hash) throw new RpcError('conflict', 'Idempotency-Key was already used with a different request body');
    const job = await this.store.findJob(existing.job_id);
    if (!job) throw new Error(`idempotency key points to missing job ${existing.job_id}`);
    // A deleted or expired job is not found, whichever way it is asked for.
    throwIfGone(job);
    return { job: toJobRecord(job), replayed: true };
  }

  private keyCutoff(): Date {
    return new Date(this.now().getTime() - IDEMPOTENCY_KEY_TTL_MS);
  }

  async get(request: GetJobRequestV1): Promise<JobRecordV1> {
    const job = isUuid(request.job_id) ? await this.store.findJob(request.job_id) : null;
    if (!job || !visible(job, request)) throw notFound();
    throwIfGone(job);
    return toJobRecord(job);
  }

  async list(request: ListJobsRequestV1): Promise<ListJobsReplyV1> {
    const after = request.cursor ? decodeCursor(request.cursor) : undefined;
    if (after === null) throw new RpcError('invalid_request', 'cursor is not valid');
    const limit = Math.min(Math.max(Math.trunc(request.limit) || 20, 1), 100);
    const jobs = await this.store.listJobs({ accountId: request.account_id, jobType: request.job_type, status: request.status, after, limit: limit + 1 });
    const page = jobs.slice(0, limit);
    const last = page[page.length - 1];
    const next_cursor = jobs.length > limit && last ? encodeCursor({ createdAt: last.created_at, id: last.job_id }) : null;
    return { jobs: page.map(toJobRecord), next_cursor };
  }

  async cancel(request: CancelJobRequestV1): Promise<JobRecordV1> {
    if (!isUuid(request.job_id)) throw notFound();
    const record = await this.store.updateJob(request.job_id, (job) => {
      if (!job || !visible(job, request)) throw notFound();
      throwIfGone(job);
      const next = transition(job, { kind: 'cancel' });
      if (next.outcome !== 'applied') throw new RpcError('conflict', next.reason);
      const updated = this.apply(job, next.change);
      return { value: updated, write: { job: updated, outbox: messagesOf(next, updated) } };
    });
    this.options.onOutboxWritten?.();
    await this.ended(record);
    return toJobRecord(record);
  }

  // DELETE /v1/{type}/{job_id} (decision 0024): a final job is marked deleted, for good; the caller then
  // deletes its files. A job still PROCESSING must be cancelled first. Deleting again changes nothing.
  async markDeleted(request: DeleteJobRequestV1): Promise<Job> {
    if (!isUuid(request.job_id)) throw notFound();
    return this.store.updateJob(request.job_id, (job) => {
      if (!job || !visible(job, request)) throw notFound();
      if (job.deleted_at) return { value: job };
      if (!isFinalJobStatus(job.status)) throw new RpcError('conflict', 'the job is still PROCESSING: cancel it first, then delete it');
      const deleted: Job = { ...job, deleted_at: this.now() };
      return { value: deleted, write: { job: deleted, outbox: [] } };
    });
  }

  // Suspension: every job of the account still PROCESSING is cancelled, each through the state machine
  // with its cancelled event, so billing releases its hold and charges nothing. Safe to repeat.
  async cancelAccountJobs(request: CancelAccountJobsRequestV1): Promise<CancelAccountJobsReplyV1> {
    if (!isUuid(request.account_id)) throw new RpcError('invalid_request', 'account_id must be a UUID');
    let cancelled = 0;
    for (;;) {
      const ids = await this.store.findProcessingJobsOf(request.account_id, 100);
      let applied = 0;
      for (const id of ids) if ((await this.applyCommand(id, { kind: 'cancel' })) === 'applied') applied++;
      cancelled += applied;
      // A batch where nothing applied holds only jobs that ended meanwhile: the next query skips them.
      if (ids.length < 100 || applied === 0) return { cancelled };
    }
  }

  // Reports, billing events, dead letters and the sweeper: an unknown job or one the command no longer
  // applies to is "ignored", never an error.
  async applyCommand(jobId: string, command: JobCommand): Promise<CommandOutcome> {
    const applied = await this.store.updateJob<Job | null>(jobId, (job) => {
      if (!job) return { value: null };
      const next = transition(job, command);
      if (next.outcome !== 'applied') return { value: null };
      const updated = this.apply(job, next.change);
      return { value: updated, write: { job: updated, outbox: messagesOf(next, updated) } };
    });
    if (!applied) return 'ignored';
    this.options.onOutboxWritten?.();
    await this.ended(applied);
    return 'applied';
  }

  private async ended(job: Job): Promise<void> {
    if (job.job_type === PIECED_JOB_TYPE && isFinalJobStatus(job.status)) await this.options.onPiecedJobEnded?.(job.job_id);
  }

  failJob(jobId: string, error: JobError): Promise<CommandOutcome> {
    return this.applyCommand(jobId, { kind: 'fail', error });
  }

  // Fails every PROCESSING job whose deadline passed more than graceMs ago: a crash never leaves a job stuck.
  // The deadline is the worker's own once it reported started (its limits count from then), else the
  // one set at create.
  async failJobsPastDeadline(graceMs: number, batch = 100): Promise<number> {
    const ids = await this.store.findJobsPastDeadline(new Date(this.now().getTime() - graceMs), batch);
    let failed = 0;
    for (const id of ids) {
      const outcome = await this.applyCommand(id, { kind: 'expire' });
      if (outcome === 'applied') failed++;
    }
    await this.store.deleteIdempotencyKeysBefore(this.keyCutoff());
    return failed;
  }

  private apply(job: Job, change: JobChange): Job {
    const now = this.now();
    return {
      ...job,
      status: change.status,
      attempts: change.attempts,
      failed_attempts: change.failed_attempts ?? job.failed_attempts,
      result: change.result ?? job.result,
      error: change.error ?? job.error,
      media_duration_seconds: change.media_duration_seconds ?? job.media_duration_seconds,
      deadline_at: change.deadline_at ?? job.deadline_at,
      credits_charged: change.credits_charged ?? job.credits_charged,
      funded_at: change.funded ? now : job.funded_at,
      updated_at: now,
      finished_at: change.finished ? now : job.finished_at,
      // A URL input, or an export's (its source job's files are that job's), leaves nothing of ours to
      // delete once the job ends; an upload, and a background removal's pieces, wait for the sweeper.
      input_purged_at: change.finished && job.input.kind !== 'upload' && job.job_type !== PIECED_JOB_TYPE ? now : job.input_purged_at,
    };
  }
}

// What an applied transition publishes with the job: its work once funded, then its event and the
// job's update if any.
function messagesOf(next: Extract<Transition, { outcome: 'applied' }>, job: Job): OutboxDraft[] {
  const event = next.event;
  return [
    ...(next.change.funded ? [workMessage(job)] : []),
    ...(event ? [jobEventMessage(event, job)] : []),
    ...(event && event !== 'created' ? [jobUpdateMessage(event, job)] : []),
  ];
}

// Another account's job, or a job of the other type when the caller names one, does not exist for the caller.
function visible(job: Job, request: { account_id: string; job_type?: string }): boolean {
  return job.account_id === request.account_id && (!request.job_type || request.job_type === job.job_type);
}

function notFound(): RpcError {
  return new RpcError('not_found', 'job not found');
}

// A deleted job, or a completed one whose files expired, is not found any more; the message says why.
function throwIfGone(job: Job): void {
  if (job.deleted_at) throw new RpcError('not_found', `job not found: it was deleted at ${job.deleted_at.toISOString()}`);
  if (job.files_purged_at) {
    throw new RpcError('not_found', `job not found: its result files expired at ${job.files_purged_at.toISOString()} (results are kept for a limited time after the job completes)`);
  }
}
