import { Inject, Injectable } from '@nestjs/common';
import type { CreateJobRequestV1, JobObject, JobType } from '@vj/contracts';
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
import type { GatewayJobType, JobCreateBody } from './types/gateway-job-type';
import { GATEWAY_JOB_TYPES } from './types/gateway-job-types';

export interface CreateJobInput<T extends JobType> extends JobRequest<T> {
  idempotency?: IdempotencyInput;
  // Receives this job's events as signed webhooks (the webhook delivery service, from the created event).
  webhookUrl?: string;
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
  ) {}

  async execute<T extends JobType>(request: CreateJobInput<T>): Promise<JobObject> {
    // A client's key may name an earlier create; a key made of our own request id is new unless the
    // client sent that id again, and the create itself replays it then.
    const earlier = request.idempotency && !isRequestIdKey(request.idempotency.key) && (await this.jobs.replay({ version: 1, account_id: request.accountId, idempotency: request.idempotency }));
    if (earlier) return renderCreatedJob(earlier.job);
    await this.checkOptionUploads(request);
    const { input, estimate, probedNow } = await this.quotes.quote(request);
    // A probe takes seconds; an account suspended meanwhile (its jobs cancelled) gets no new one.
    if (probedNow && !(await this.accounts.isActive(request.accountId))) throw new ApiError(401, 'unauthenticated', 'the account is suspended');
    const { job } = await this.createOnce({
      version: 1,
      account_id: request.accountId,
      job_type: request.jobType,
      input,
      options: request.options,
      estimate,
      // The jobs service counts the account's PROCESSING jobs in the same transaction as the insert.
      max_processing_jobs: maxProcessingJobs(request.limits, this.config),
      ...(request.idempotency && { idempotency: request.idempotency }),
      ...(request.webhookUrl && { webhook_url: request.webhookUrl }),
    });
    return renderCreatedJob(job);
  }

  // Checked before the quote: a refused image costs no probe.
  private async checkOptionUploads<T extends JobType>(request: CreateJobInput<T>): Promise<void> {
    const jobType: GatewayJobType<T, JobCreateBody> = GATEWAY_JOB_TYPES[request.jobType];
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
