import { randomUUID } from 'node:crypto';
import {
  isFinalJobStatus,
  type CancelAccountJobsReplyV1,
  type CancelAccountJobsRequestV1,
  type CancelJobRequestV1,
  type DeleteJobReplyV1,
  type DeleteJobRequestV1,
  type CreateJobReplyV1,
  type CreateJobRequestV1,
  type GetJobRequestV1,
  type JobError,
  type JobRecordV1,
  type ListJobsReplyV1,
  type ListJobsRequestV1,
  type ReplayJobRequestV1,
  type StoredResultV1,
} from '@vj/contracts';
import { JobsServiceError, type JobsPort } from '../src/jobs/jobs-port';

// An in-memory jobs service with the same observable rules as the real one (scoping by account and
// type, idempotency, final states), so the gateway is tested without NATS.
export class FakeJobsPort implements JobsPort {
  readonly creates: CreateJobRequestV1[] = [];
  reachable = true;
  // The next create is made, then answered like a call that timed out.
  timeOutAfterNextCreate = false;
  private readonly records = new Map<string, JobRecordV1>();
  private readonly deleted = new Map<string, string>();
  private readonly idempotency = new Map<string, { hash: string; jobId: string }>();
  private clock = Date.parse('2025-01-01T00:00:00Z');

  async create(request: CreateJobRequestV1): Promise<CreateJobReplyV1> {
    this.ensureReachable();
    this.creates.push(request);
    const idemKey = request.idempotency && `${request.account_id}:${request.idempotency.key}`;
    const earlier = idemKey ? this.idempotency.get(idemKey) : undefined;
    if (earlier) {
      if (earlier.hash !== request.idempotency?.request_hash) throw new JobsServiceError('conflict', 'Idempotency-Key was used with another body');
      return { job: this.record(earlier.jobId), replayed: true };
    }
    const processing = [...this.records.values()].filter((job) => job.account_id === request.account_id && job.status === 'PROCESSING').length;
    if (request.max_processing_jobs !== undefined && processing >= request.max_processing_jobs) {
      throw new JobsServiceError('rate_limited', `the account already has ${request.max_processing_jobs} jobs PROCESSING, its limit`);
    }
    const now = new Date((this.clock += 1000)).toISOString();
    const job: JobRecordV1 = {
      job_id: randomUUID(),
      account_id: request.account_id,
      job_type: request.job_type,
      status: 'PROCESSING',
      input: request.input,
      options: request.options,
      created_at: now,
      updated_at: now,
      // The jobs service stores the quote the gateway sent (decision 0015).
      credits_estimated: request.estimate?.credits_estimated ?? null,
      credits_charged: null,
      result: null,
      error: null,
    };
    this.records.set(job.job_id, job);
    if (idemKey && request.idempotency) this.idempotency.set(idemKey, { hash: request.idempotency.request_hash, jobId: job.job_id });
    if (this.timeOutAfterNextCreate) {
      this.timeOutAfterNextCreate = false;
      throw new JobsServiceError('unavailable', 'jobs.create: TIMEOUT');
    }
    return { job, replayed: false };
  }

  async replay(request: ReplayJobRequestV1): Promise<CreateJobReplyV1 | null> {
    this.ensureReachable();
    const earlier = this.idempotency.get(`${request.account_id}:${request.idempotency.key}`);
    if (!earlier) return null;
    if (earlier.hash !== request.idempotency.request_hash) throw new JobsServiceError('conflict', 'Idempotency-Key was used with another body');
    return { job: this.record(earlier.jobId), replayed: true };
  }

  async get(request: GetJobRequestV1): Promise<JobRecordV1> {
    this.ensureReachable();
    return this.owned(request);
  }

  async list(request: ListJobsRequestV1): Promise<ListJobsReplyV1> {
    this.ensureReachable();
    const offset = request.cursor === undefined ? 0 : Number(Buffer.from(request.cursor, 'base64url').toString());
    if (!Number.isInteger(offset) || offset < 0) throw new JobsServiceError('invalid_request', 'cursor is not valid');
    const matching = [...this.records.values()]
      .filter((job) => job.account_id === request.account_id)
      .filter((job) => !request.job_type || job.job_type === request.job_type)
      .filter((job) => !request.status || job.status === request.status)
      .sort((a, b) => b.created_at.localeCompare(a.created_at));
    const jobs = matching.slice(offset, offset + request.limit);
    const next = offset + request.limit < matching.length ? Buffer.from(String(offset + request.limit)).toString('base64url') : null;
    return { jobs, next_cursor: next };
  }

  async cancel(request: CancelJobRequestV1): Promise<JobRecordV1> {
    this.ensureReachable();
    const job = this.owned(request);
    if (isFinalJobStatus(job.status)) throw new JobsServiceError('conflict', `job is already ${job.status}`);
    return this.update(job.job_id, { status: 'CANCELLED' });
  }

  async cancelAccount(request: CancelAccountJobsRequestV1): Promise<CancelAccountJobsReplyV1> {
    this.ensureReachable();
    const live = [...this.records.values()].filter((job) => job.account_id === request.account_id && job.status === 'PROCESSING');
    for (const job of live) this.records.set(job.job_id, { ...job, status: 'CANCELLED' });
    return { cancelled: live.length };
  }

  async delete(request: DeleteJobRequestV1): Promise<DeleteJobReplyV1> {
    this.ensureReachable();
    const deletedAt = this.deleted.get(`${request.account_id}:${request.job_id}`);
    if (deletedAt) return { deleted_at: deletedAt };
    const job = this.owned(request);
    if (!isFinalJobStatus(job.status)) throw new JobsServiceError('conflict', 'the job is still PROCESSING: cancel it first, then delete it');
    this.records.delete(job.job_id);
    const at = new Date(this.clock).toISOString();
    this.deleted.set(`${request.account_id}:${request.job_id}`, at);
    return { deleted_at: at };
  }

  complete(jobId: string, result: StoredResultV1, creditsCharged: number | null): JobRecordV1 {
    return this.update(jobId, { status: 'COMPLETED', result, credits_charged: creditsCharged });
  }

  fail(jobId: string, error: JobError): JobRecordV1 {
    return this.update(jobId, { status: 'FAILED', error });
  }

  private owned(request: { account_id: string; job_id: string; job_type?: string }): JobRecordV1 {
    const job = this.records.get(request.job_id);
    if (!job || job.account_id !== request.account_id || (request.job_type && job.job_type !== request.job_type)) {
      throw new JobsServiceError('not_found', 'job not found');
    }
    return job;
  }

  private record(jobId: string): JobRecordV1 {
    const job = this.records.get(jobId);
    if (!job) throw new Error(`no job ${jobId}`);
    return job;
  }

  private update(jobId: string, changes: Partial<JobRecordV1>): JobRecordV1 {
    const job = { ...this.record(jobId), ...changes, updated_at: new Date((this.clock += 1000)).toISOString() };
    this.records.set(jobId, job);
    return job;
  }

  private ensureReachable(): void {
    if (!this.reachable) throw new JobsServiceError('unavailable', 'no responders');
  }
}
