import createClient, { type Client } from 'openapi-fetch';
import { errorFromResponse, JobFailedError, VideoJobsError } from './errors';
import { readJobEvents, type Progress } from './follow';
import type { paths } from './generated/api';
import { retryingFetch, type RetryOptions } from './retrying-fetch';
import { FINAL_STATUSES, type Balance, type Estimate, type FileObject, type Job, type JobReport, type JobsByType, type JobStatus, type JobType, type LedgerEntry, type Upload, type UploadState, type UsageReport } from './types';
import { partBytes, sendParts, type PartLayout, type PartTransport, type SignedPart } from './part-sender';
import { counted, putFromBrowser, uploadBody, type UploadBody, type UploadSource } from './upload-body';

export interface VideoJobsOptions {
  apiKey: string;
  // The API's base URL, e.g. http://localhost:3000.
  baseUrl: string;
  fetch?: typeof fetch;
  retry?: Partial<RetryOptions>;
}

export interface WaitOptions {
  onProgress?: (progress: Progress) => void;
  // Gives up with a VideoJobsError code `timeout` after this long (default: no limit).
  timeoutMs?: number;
  // Resolves with a FAILED or CANCELLED job instead of rejecting with JobFailedError.
  allowFailure?: boolean;
  // A COMPLETED job gets credits_charged once billing records the charge (a moment later): wait for it
  // too, up to 10 s.
  charged?: boolean;
}

const CHARGE_WAIT_MS = 10_000;

export type JobRef = { job_id: string } & Partial<Job>;

const REMEMBERED_JOBS = 10_000;

// A bounded map: a long-lived client does not grow with every job it ever saw.
class RecentTypes extends Map<string, JobType> {
  override set(jobId: string, type: JobType): this {
    this.delete(jobId);
    super.set(jobId, type);
    if (this.size > REMEMBERED_JOBS) this.delete(this.keys().next().value as string);
    return this;
  }
}

const DEFAULT_RETRY: RetryOptions = { maxRetries: 4, baseDelayMs: 500, maxDelayMs: 30_000 };
const POLL_WAIT_SECONDS = 25;

function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

// The video jobs API, typed from its OpenAPI document. Every create carries an Idempotency-Key (yours,
// or a new one per call), so its retries never make a second job; 429 and 503 are retried after
// Retry-After; every refusal is a VideoJobsError with the API's code and the request id.
export class VideoJobs {
  readonly api: Client<paths>;
  readonly cleanAudioVideo: JobResource<'clean-audio-video'>;
  readonly videoBackgroundRemoval: JobResource<'video-background-removal'>;
  readonly jobs: Jobs;
  readonly uploads: Uploads;
  readonly billing: Billing;
  private readonly send: (request: Request) => Promise<Response>;
  // The type of the jobs this client created or read lately, so jobs.wait(job) knows its path.
  readonly typeOf = new RecentTypes();

  constructor(readonly options: VideoJobsOptions) {
    const inner = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.send = retryingFetch(inner, { ...DEFAULT_RETRY, ...options.retry });
    this.api = createClient<paths>({ baseUrl: options.baseUrl.replace(/\/$/, ''), fetch: this.send, headers: { authorization: `Bearer ${options.apiKey}` } });
    this.cleanAudioVideo = new JobResource(this, 'clean-audio-video');
    this.videoBackgroundRemoval = new JobResource(this, 'video-background-removal');
    this.jobs = new Jobs(this);
    this.uploads = new Uploads(this);
    this.billing = new Billing(this);
  }

  // The data of an openapi-fetch answer, or its error as a VideoJobsError.
  async unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
    let answer: { data?: T; error?: unknown; response: Response };
    try {
      answer = await call;
    } catch (error) {
      throw new VideoJobsError(`no answer from ${this.options.baseUrl}: ${error instanceof Error ? error.message : String(error)}`, null, 'network', null);
    }
    if (answer.error !== undefined || !answer.response.ok) throw await errorFromResponse(answer.response, answer.error);
    return answer.data as T;
  }

  // A raw authenticated request through the same retries (SSE, downloads).
  request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${this.options.apiKey}`);
    return this.send(new Request(`${this.options.baseUrl.replace(/\/$/, '')}${path}`, { ...init, headers }));
  }

  // Streams a result file to a path (Node), reporting bytes written.
  async download(file: Pick<FileObject, 'url' | 'file_size'>, path: string, onProgress?: (written: number, total: number) => void): Promise<void> {
    const response = await (this.options.fetch ?? fetch)(file.url);
    if (!response.ok || !response.body) throw new VideoJobsError(`download failed: ${response.status}`, response.status, 'download_failed', null);
    const [{ createWriteStream }, { Writable }] = await Promise.all([import('node:fs'), import('node:stream')]);
    const body = counted(response.body as ReadableStream<Uint8Array>, (written) => onProgress?.(written, file.file_size ?? 0));
    await body.pipeTo(Writable.toWeb(createWriteStream(path)) as WritableStream<Uint8Array>);
  }
}

export class JobResource<T extends JobType> {
  constructor(
    private readonly client: VideoJobs,
    readonly type: T,
  ) {}

  async create(body: JobsByType[T]['create'], options: { idempotencyKey?: string } = {}): Promise<JobsByType[T]['job']> {
    const job = await this.client.unwrap(
      this.client.api.POST(`/v1/${this.type}` as '/v1/clean-audio-video', {
        body: body as JobsByType['clean-audio-video']['create'],
        headers: { 'idempotency-key': options.idempotencyKey ?? newIdempotencyKey() } as never,
      }),
    );
    this.client.typeOf.set(job.job_id, this.type);
    return job as JobsByType[T]['job'];
  }

  // A new job that delivers a COMPLETED job again with other options, without running the model, at the
  // export price (clean audio: a remix of its kept stems). Its own job_id: wait for it like any job.
  async export(jobId: string, body: JobsByType[T]['export'], options: { idempotencyKey?: string } = {}): Promise<JobsByType[T]['job']> {
    const job = await this.client.unwrap(
      this.client.api.POST(`/v1/${this.type}/{job_id}/exports` as '/v1/clean-audio-video/{job_id}/exports', {
        params: { path: { job_id: jobId } },
        body: body as JobsByType['clean-audio-video']['export'],
        headers: { 'idempotency-key': options.idempotencyKey ?? newIdempotencyKey() } as never,
      }),
    );
    this.client.typeOf.set(job.job_id, this.type);
    return job as JobsByType[T]['job'];
  }

  async get(jobId: string, options: { waitSeconds?: number } = {}): Promise<JobsByType[T]['job']> {
    const headers = options.waitSeconds ? { prefer: `wait=${options.waitSeconds}` } : {};
    const job = await this.client.unwrap(
      this.client.api.GET(`/v1/${this.type}/{job_id}` as '/v1/clean-audio-video/{job_id}', { params: { path: { job_id: jobId } }, headers: headers as never }),
    );
    this.client.typeOf.set(job.job_id, this.type);
    return job as JobsByType[T]['job'];
  }

  // What a COMPLETED job measured of its own work (loudness and picture copy, or the matte's figures):
  // a conflict error until it is COMPLETED.
  async report(jobId: string): Promise<JobsByType[T]['report']> {
    return (await this.client.unwrap(
      this.client.api.GET(`/v1/${this.type}/{job_id}/report` as '/v1/clean-audio-video/{job_id}/report', { params: { path: { job_id: jobId } } }),
    )) as JobsByType[T]['report'];
  }

  async cancel(jobId: string): Promise<JobsByType[T]['job']> {
    return (await this.client.unwrap(
      this.client.api.POST(`/v1/${this.type}/{job_id}/cancel` as '/v1/clean-audio-video/{job_id}/cancel', { params: { path: { job_id: jobId } } }),
    )) as JobsByType[T]['job'];
  }

  async delete(jobId: string): Promise<void> {
    const { response } = await this.client.api.DELETE(`/v1/${this.type}/{job_id}` as '/v1/clean-audio-video/{job_id}', { params: { path: { job_id: jobId } } });
    if (!response.ok) throw await errorFromResponse(response);
  }

  // Every job of this type, newest first, page after page.
  list(filter: { status?: JobStatus; pageSize?: number } = {}): AsyncIterable<JobsByType[T]['job']> {
    return this.client.jobs.list({ ...filter, type: this.type }) as AsyncIterable<JobsByType[T]['job']>;
  }
}

export class Jobs {
  constructor(private readonly client: VideoJobs) {}

  async *list(filter: { type?: JobType; status?: JobStatus; pageSize?: number } = {}): AsyncIterable<Job & { type: JobType; created_at: string }> {
    let cursor: string | undefined;
    do {
      const page = await this.client.unwrap(
        this.client.api.GET('/v1/jobs', { params: { query: { type: filter.type, status: filter.status, limit: filter.pageSize, cursor } } }),
      );
      for (const item of page.data) yield { ...(item.job as unknown as Job), type: item.type, created_at: item.created_at };
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }

  // A job by its id alone, whatever its type.
  async get(jobId: string): Promise<Job> {
    return this.resourceOf(await this.typeOf(jobId)).get(jobId);
  }

  async cancel(jobId: string): Promise<Job> {
    return this.resourceOf(await this.typeOf(jobId)).cancel(jobId);
  }

  // A COMPLETED job's quality report by its id alone (JobResource.report).
  async report(jobId: string): Promise<JobReport> {
    return this.resourceOf(await this.typeOf(jobId)).report(jobId);
  }

  // An export of a COMPLETED job by its id alone (JobResource.export): the body must suit its type.
  async export(jobId: string, body: JobsByType[JobType]['export'], options: { idempotencyKey?: string } = {}): Promise<Job> {
    return this.resourceOf(await this.typeOf(jobId)).export(jobId, body as never, options);
  }

  // The job once final, following its Server-Sent Events (progress on the way) where the server offers
  // them, else asking with Prefer: wait (long polls) and a growing pause when that is not honoured.
  async wait<J extends Job = Job>(job: JobRef, options: WaitOptions & { type?: JobType } = {}): Promise<J> {
    const type = options.type ?? (await this.typeOf(job.job_id));
    const deadline = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
    let final = (await this.follow(type, job.job_id, options, deadline)) ?? (await this.poll(type, job.job_id, deadline));
    if (!options.allowFailure && final.status !== 'COMPLETED') throw new JobFailedError(final);
    for (const until = Date.now() + CHARGE_WAIT_MS; options.charged && final.status === 'COMPLETED' && final.credits_charged === undefined && Date.now() < until; ) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      final = await this.resourceOf(type).get(job.job_id);
    }
    return final as J;
  }

  private async follow(type: JobType, jobId: string, options: WaitOptions, deadline: number): Promise<Job | null> {
    let lastEventId: string | null = null;
    for (let reconnects = 0; reconnects < 5 && Date.now() < deadline; reconnects++) {
      let response: Response;
      try {
        response = await this.client.request(`/v1/${type}/${jobId}/events`, {
          headers: { accept: 'text/event-stream', ...(lastEventId && { 'last-event-id': lastEventId }) },
          signal: Number.isFinite(deadline) ? AbortSignal.timeout(Math.max(1, deadline - Date.now())) : undefined,
        });
      } catch {
        continue;
      }
      // Nothing more will come: the job is final.
      if (response.status === 204) return null;
      if (response.status === 404 && reconnects === 0) throw await errorFromResponse(response);
      if (!response.ok || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
        await response.body?.cancel();
        return null;
      }
      try {
        const outcome = await readJobEvents<Job>(response, options.onProgress);
        if (outcome.job) return outcome.job;
        lastEventId = outcome.lastEventId ?? lastEventId;
      } catch {
        // The stream broke: reconnect after the last event seen.
      }
    }
    return null;
  }

  private resourceOf(type: JobType): JobResource<JobType> {
    return type === 'clean-audio-video' ? this.client.cleanAudioVideo : this.client.videoBackgroundRemoval;
  }

  private async poll(type: JobType, jobId: string, deadline: number): Promise<Job> {
    const resource = this.resourceOf(type);
    for (let pause = 1_000; ; pause = Math.min(pause * 2, 10_000)) {
      const started = Date.now();
      const job = await resource.get(jobId, { waitSeconds: POLL_WAIT_SECONDS });
      if (FINAL_STATUSES.includes(job.status)) return job;
      if (Date.now() >= deadline) throw new VideoJobsError(`job ${jobId} is still ${job.status}`, null, 'timeout', null);
      // A server that held the answer is polled again at once; one that did not, after a pause.
      if (Date.now() - started < 1_000) await new Promise((resolve) => setTimeout(resolve, Math.min(pause, Math.max(0, deadline - Date.now()))));
    }
  }

  // Known for every job this client created or read; otherwise asked of each type's path in turn.
  private async typeOf(jobId: string): Promise<JobType> {
    const known = this.client.typeOf.get(jobId);
    if (known) return known;
    for (const type of ['clean-audio-video', 'video-background-removal'] as const) {
      const response = await this.client.request(`/v1/${type}/${jobId}`);
      await response.body?.cancel();
      if (response.ok) {
        this.client.typeOf.set(jobId, type);
        return type;
      }
      if (response.status !== 404) throw await errorFromResponse(response);
    }
    throw new VideoJobsError(`no job ${jobId}`, 404, 'not_found', null);
  }
}

export interface UploadOptions {
  fileName?: string;
  contentType?: string;
  // The bytes stored so far, of the whole file: with multipart, counted as each part is confirmed.
  onProgress?: (sent: number, total: number) => void;
  // In parts (decision 0099): resumable, each part retried alone. Default: for a file over 64 MiB given
  // as a path, bytes or a Blob (a stream is always sent in one PUT).
  multipart?: boolean;
  // Parts in flight at once (default 4).
  concurrency?: number;
  // Called once a multipart upload is declared, before its parts are sent: keep upload_id to resume
  // it (`resume`) should this upload fail or the process end.
  onStart?: (upload: Upload) => void;
}

export type UploadResumeOptions = Pick<UploadOptions, 'onProgress' | 'concurrency'>;

const MULTIPART_FROM_BYTES = 64 * 1024 ** 2;
const DEFAULT_CONCURRENCY = 4;
// A part is waited for again at most this long: storage, not the API, is what failed.
const PART_RETRY_MAX_MS = 8_000;

export class Uploads {
  constructor(private readonly client: VideoJobs) {}

  // Declares the file, then streams it to the presigned URL (never buffered whole), or sends it in
  // parts and completes it; the video_url of the answer goes into a create.
  async upload(source: UploadSource, options: UploadOptions = {}): Promise<Upload> {
    const body = await uploadBody(source, options);
    const multipart = options.multipart ?? (body.slice !== undefined && body.size > MULTIPART_FROM_BYTES);
    // Said either way: left out, the API would answer parts for a stream over its one-PUT limit.
    const declaration = { file_name: body.fileName, content_type: body.contentType, file_size: body.size, multipart };
    const ticket = await this.client.unwrap(this.client.api.POST('/v1/uploads', { body: declaration }));
    if (ticket.parts) {
      options.onStart?.(ticket);
      await this.sendMissing(ticket.upload_id, ticket.parts, body, [], options);
      return ticket;
    }
    const onBytes = (sent: number) => options.onProgress?.(sent, body.size);
    // Declared without multipart, the answer is one PUT URL.
    if (ticket.upload_url === undefined) throw new VideoJobsError('the upload was answered without an upload_url', null, 'upload_failed', null);
    const status = await this.put(ticket.upload_url, body, onBytes);
    if (status < 200 || status > 299) throw new VideoJobsError(`the upload was refused by storage (${status})`, status, 'upload_failed', null);
    return ticket;
  }

  // Sends what a multipart upload still lacks (after a crash, a closed tab, a part that kept failing),
  // then completes it. `source` must be the same file.
  async resume(uploadId: string, source: UploadSource, options: UploadResumeOptions = {}): Promise<UploadState> {
    const state = await this.get(uploadId);
    if (state.status === 'complete') return state;
    if (!state.parts) throw new VideoJobsError('this upload is one PUT, which cannot be resumed: upload the file again', null, 'upload_failed', null);
    const body = await uploadBody(source, { fileName: state.file_name, contentType: state.content_type });
    if (body.size !== state.file_size) throw new VideoJobsError(`the file is ${body.size} bytes, the upload was declared for ${state.file_size}: not the same file`, null, 'upload_failed', null);
    return this.sendMissing(uploadId, state.parts, body, state.parts_uploaded, options);
  }

  get(uploadId: string): Promise<UploadState> {
    return this.client.unwrap(this.client.api.GET('/v1/uploads/{upload_id}', { params: { path: { upload_id: uploadId } } }));
  }

  // Aborts a multipart upload that is not complete, freeing its parts.
  async abort(uploadId: string): Promise<void> {
    const { response } = await this.client.api.DELETE('/v1/uploads/{upload_id}', { params: { path: { upload_id: uploadId } } });
    if (!response.ok) throw await errorFromResponse(response);
  }

  // The parts not stored at their size, then the complete.
  private async sendMissing(uploadId: string, layout: PartLayout, body: UploadBody, uploaded: UploadState['parts_uploaded'], options: UploadResumeOptions): Promise<UploadState> {
    const stored = new Set(uploaded.filter((part) => part.size === partBytes(layout, body.size, part.part_number)).map((part) => part.part_number));
    let confirmed = [...stored].reduce((sum, partNumber) => sum + partBytes(layout, body.size, partNumber), 0);
    options.onProgress?.(confirmed, body.size);
    const missing = Array.from({ length: layout.count }, (_, i) => i + 1).filter((partNumber) => !stored.has(partNumber));
    const transport: PartTransport = {
      sign: async (partNumbers) =>
        (await this.client.unwrap(this.client.api.POST('/v1/uploads/{upload_id}/parts', { params: { path: { upload_id: uploadId } }, body: { part_numbers: partNumbers } }))).parts,
      put: (part, bytes) => this.putPart(part, bytes),
      sleep: this.client.options.retry?.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    };
    const retry = { ...DEFAULT_RETRY, ...this.client.options.retry };
    await sendParts(transport, body, layout, missing, {
      concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
      retry: { attempts: retry.maxRetries + 1, baseDelayMs: retry.baseDelayMs, maxDelayMs: Math.min(retry.maxDelayMs, PART_RETRY_MAX_MS) },
      onStored: (part) => options.onProgress?.((confirmed += part.size), body.size),
    });
    return this.client.unwrap(this.client.api.POST('/v1/uploads/{upload_id}/complete', { params: { path: { upload_id: uploadId } } }));
  }

  // A part's bytes, with exactly the length its URL was signed for.
  private async putPart(part: SignedPart, bytes: { stream(): ReadableStream<Uint8Array>; blob?: Blob }): Promise<number> {
    const fromBrowser = bytes.blob && putFromBrowser(part.url, bytes.blob, null, () => undefined);
    if (fromBrowser) return fromBrowser;
    const put = await (this.client.options.fetch ?? fetch)(part.url, {
      method: 'PUT',
      body: bytes.stream(),
      headers: { 'content-length': String(part.size) },
      duplex: 'half',
    } as RequestInit);
    return put.status;
  }

  private async put(url: string, body: UploadBody, onBytes: (sent: number) => void): Promise<number> {
    try {
      const fromBrowser = body.blob && putFromBrowser(url, body.blob, body.contentType, onBytes);
      if (fromBrowser) return await fromBrowser;
    } catch (error) {
      throw new VideoJobsError(`the upload failed: ${error instanceof Error ? error.message : String(error)}`, null, 'network', null);
    }
    const put = await (this.client.options.fetch ?? fetch)(url, {
      method: 'PUT',
      body: counted(body.stream(), onBytes),
      headers: { 'content-type': body.contentType, 'content-length': String(body.size) },
      duplex: 'half',
    } as RequestInit);
    return put.status;
  }
}

export class Billing {
  constructor(private readonly client: VideoJobs) {}

  balance(): Promise<Balance> {
    return this.client.unwrap(this.client.api.GET('/v1/billing/balance'));
  }

  usage(query: { from?: string; to?: string; groupBy?: 'day' | 'job_type' } = {}): Promise<UsageReport> {
    // JSON unless text/csv is asked for (usageCsv).
    return this.client.unwrap(this.client.api.GET('/v1/billing/usage', { params: { query: { from: query.from, to: query.to, group_by: query.groupBy } } })) as Promise<UsageReport>;
  }

  // The same report as CSV (header, rows, then a total line).
  async usageCsv(query: { from?: string; to?: string; groupBy?: 'day' | 'job_type' } = {}): Promise<string> {
    const params = new URLSearchParams(Object.entries({ from: query.from, to: query.to, group_by: query.groupBy }).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const response = await this.client.request(`/v1/billing/usage${params.size ? `?${params}` : ''}`, { headers: { accept: 'text/csv' } });
    if (!response.ok) throw await errorFromResponse(response);
    return response.text();
  }

  async *ledger(pageSize?: number): AsyncIterable<LedgerEntry> {
    let cursor: string | undefined;
    do {
      const page = await this.client.unwrap(this.client.api.GET('/v1/billing/ledger', { params: { query: { limit: pageSize, cursor } } }));
      yield* page.data;
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }

  estimate<T extends JobType>(type: T, body: JobsByType[T]['create']): Promise<Estimate> {
    return this.client.unwrap(this.client.api.POST('/v1/estimates', { params: { query: { type } }, body: body as never }));
  }
}
