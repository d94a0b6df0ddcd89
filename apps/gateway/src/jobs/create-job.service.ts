import { Inject, Injectable } from '@nestjs/common';
import type { JobObject, JobType } from '@vj/contracts';
import type { IdempotencyInput } from './idempotency.decorators';
import { renderCreatedJob } from './job-object.renderer';
import { JOBS_PORT, type JobsPort } from './jobs-port';
import { QuoteJobService, type JobRequest } from './quote-job.service';

export interface CreateJobInput<T extends JobType> extends JobRequest<T> {
  idempotency?: IdempotencyInput;
}

// Quotes the job, then sends the create command with the quote: no job is accepted without one, so
// billing unreachable is a 503 like the jobs service unreachable. A replayed Idempotency-Key is looked
// up first and answered without a new quote: the original job renders to the same body as the first
// answer (its own credits_estimated), even while billing is down. A key reused with another body is
// the jobs service's 409; two first requests racing are settled by the create itself.
@Injectable()
export class CreateJobService {
  constructor(
    @Inject(JOBS_PORT) private readonly jobs: JobsPort,
    private readonly quotes: QuoteJobService,
  ) {}

  async execute<T extends JobType>(request: CreateJobInput<T>): Promise<JobObject> {
    const earlier = request.idempotency && (await this.jobs.replay({ version: 1, account_id: request.accountId, idempotency: request.idempotency }));
    if (earlier) return renderCreatedJob(earlier.job);
    const { input, estimate } = await this.quotes.quote(request);
    const { job } = await this.jobs.create({
      version: 1,
      account_id: request.accountId,
      job_type: request.jobType,
      input,
      options: request.options,
      estimate,
      ...(request.idempotency && { idempotency: request.idempotency }),
    });
    return renderCreatedJob(job);
  }
}
