import { Inject, Injectable } from '@nestjs/common';
import { quoteJob, type CreateJobRequestV1, type CreditEstimateV1, type ExportInputV1, type JobObject, type JobOptionsByType, type JobRecordV1, type JobType } from '@vj/contracts';
import { CurrentPrices } from '../billing';
import { GATEWAY_CONFIG } from '../config/gateway-config.token';
import type { GatewayConfig } from '../gateway.env';
import { ApiError } from '../http/api-error';
import { AccountsRepository, type AccountLimitOverrides } from '../identity';
import { maxProcessingJobs } from '../rate-limits/rate-limit-policy';
import { isRequestIdKey, type IdempotencyInput } from './idempotency.decorators';
import { renderCreatedJob } from '@vj/contracts';
import { JOBS_PORT, JobsServiceError, type JobsPort } from './jobs-port';
import { OwnUploads } from './own-uploads';
import { QuoteJobService, type JobRequest } from './quote-job.service';
import type { GatewayJobType, JobCreateBody, JobExportBody } from './types/gateway-job-type';
import { gatewayJobType } from './types/gateway-job-types';

export interface CreateJobInput<T extends JobType> extends JobRequest<T> {
  idempotency?: IdempotencyInput;
  // Receives this job's events as signed webhooks (the webhook delivery service, from the created event).
  webhookUrl?: string;
  limits: AccountLimitOverrides;
}

// POST /v1/{type}/{job_id}/exports (decision 0093): a new job of the source's type made from what the
// source kept, with the export body's options.
export interface ExportJobInput<T extends JobType> {
  accountId: string;
  jobType: T;
  sourceJobId: string;
  // Validated by the job type's export body class.
  body: JobExportBody;
  idempotency?: IdempotencyInput;
  limits: AccountLimitOverrides;
}

// Quotes the job, then sends the create command with the quote: no job is accepted without one, so
// billing unreachable is a 503 like the jobs service unreachable. A replayed Idempotency-Key is looked
// up first and answered without a new quote: the original job renders to the same body as the first
// answer (its own credits_estimated), even while billing is down. A key reused with another body is
// the jobs service's 409; two first requests racing are settled by the create itself. A create past the
// account's cap on PROCESSING jobs is the jobs service's rate_limited (429), never a failed job.
@Injectable()
export class CreateJobService {
  constructor(
    @Inject(JOBS_PORT) private readonly jobs: JobsPort,
    private readonly quotes: QuoteJobService,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly accounts: AccountsRepository,
    private readonly uploads: OwnUploads,
    private readonly prices: CurrentPrices,
  ) {}

  async execute<T extends JobType>(request: CreateJobInput<T>): Promise<JobObject> {
    const earlier = await this.replayed(request);
    if (earlier) return earlier;
    await this.checkOptionUploads(request);
    const { input, estimate, probedNow } = await this.quotes.quote(request);
    // A probe takes seconds; an account suspended meanwhile (its jobs cancelled) gets no new one.
    if (probedNow && !(await this.accounts.isActive(request.accountId))) throw new ApiError(401, 'unauthenticated', 'the account is suspended');
    return this.submit(request, input, request.options, estimate);
  }

  // The source must be a COMPLETED job of this type, in this account, that kept what an export needs;
  // a deleted or expired one is the jobs service's 404, which says so. The export is quoted with the
  // duration the source was charged for, at the export's price (options.export_of).
  async executeExport<T extends JobType>(request: ExportJobInput<T>): Promise<JobObject> {
    const exports = gatewayJobType(request.jobType).exports;
    if (!exports) throw ApiError.notFound(`${request.jobType} jobs have no exports`);
    const earlier = await this.replayed(request);
    if (earlier) return earlier;
    const { body } = request;
    const source = (await this.jobs.get({ version: 1, account_id: request.accountId, job_id: request.sourceJobId, job_type: request.jobType })) as JobRecordV1<T>;
    const input = exportInput(source);
    const options = { ...exports.options(body, source.options), export_of: source.job_id } as JobOptionsByType[T];
    await this.checkOptionUploads({ ...request, options });
    const estimate = quoteJob(await this.prices.current(), request.jobType, options, input.source.duration_seconds);
    return this.submit({ ...request, webhookUrl: body.webhook_url }, input, options, estimate);
  }

  // A client's key may name an earlier create; a key made of our own request id is new unless the
  // client sent that id again, and the create itself replays it then.
  private async replayed(request: { accountId: string; idempotency?: IdempotencyInput }): Promise<JobObject | null> {
    if (!request.idempotency || isRequestIdKey(request.idempotency.key)) return null;
    const earlier = await this.jobs.replay({ version: 1, account_id: request.accountId, idempotency: request.idempotency });
    return earlier ? renderCreatedJob(earlier.job) : null;
  }

  private async submit<T extends JobType>(
    request: { accountId: string; jobType: T; idempotency?: IdempotencyInput; webhookUrl?: string; limits: AccountLimitOverrides },
    input: CreateJobRequestV1['input'],
    options: JobOptionsByType[T],
    estimate: CreditEstimateV1,
  ): Promise<JobObject> {
    const { job } = await this.createOnce({
      version: 1,
      account_id: request.accountId,
      job_type: request.jobType,
      input,
      options,
      estimate,
      // The jobs service counts the account's PROCESSING jobs in the same transaction as the insert.
      max_processing_jobs: maxProcessingJobs(request.limits, this.config),
      ...(request.idempotency && { idempotency: request.idempotency }),
      ...(request.webhookUrl && { webhook_url: request.webhookUrl }),
    });
    return renderCreatedJob(job);
  }

  // Checked before the quote: a refused image costs no probe.
  private async checkOptionUploads<T extends JobType>(request: Pick<CreateJobInput<T>, 'accountId' | 'jobType' | 'options'>): Promise<void> {
    const jobType: GatewayJobType<T, JobCreateBody> = gatewayJobType(request.jobType);
    for (const named of jobType.optionUploads?.(request.options) ?? []) {
      const { declaration } = await this.uploads.find(request.accountId, named.field, named.url);
      if (!named.contentTypes.includes(declaration.content_type)) {
        throw ApiError.invalidField(named.field, `this upload is ${declaration.content_type}; ${named.field} takes an upload declared as ${named.contentTypes.join(', ')}`);
      }
    }
  }

  // A call that timed out may have created the job: asked again with the same key, the jobs service
  // answers with that job instead of making a second one.
  private async createOnce(request: CreateJobRequestV1) {
    try {
      return await this.jobs.create(request);
    } catch (error) {
      if (!(error instanceof JobsServiceError && error.code === 'unavailable')) throw error;
      return this.jobs.create(request);
    }
  }
}

// What an export of this job reads: its delivered picture and what it kept. Only a COMPLETED job that
// kept something can be exported; an export itself keeps nothing (export from its source instead).
// The pictures are clean audio's delivered video (its picture is the input's, bit for bit), or the
// input a background removal kept beside its matte.
function exportInput(source: JobRecordV1): ExportInputV1 {
  if (source.status !== 'COMPLETED') throw new ApiError(409, 'conflict', `job ${source.job_id} is ${source.status}: only a COMPLETED job can be exported`);
  const result = source.result;
  const kept = result?.export_source;
  if (!result || !kept) {
    const why = source.input.kind === 'export' ? 'it is itself an export: export its source job' : 'it kept nothing to export (it completed before exports, or on a worker that keeps nothing)';
    throw ApiError.notFound(`job ${source.job_id} cannot be exported: ${why}`);
  }
  const picture = kept.kind === 'matte' ? kept.source : 'video' in result ? result.video : null;
  if (!picture) throw new Error(`job ${source.job_id}: ${result.job_type} cannot have kept ${kept.kind}`);
  return { kind: 'export', source_job_id: source.job_id, picture, source: kept };
}
