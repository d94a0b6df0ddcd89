import { Inject, Injectable } from '@nestjs/common';
import type { JobObject, JobOptionsByType, JobType } from '@vj/contracts';
import type { IdempotencyInput } from './idempotency.decorators';
import { renderCreatedJob } from './job-object.renderer';
import { JOBS_PORT, type JobsPort } from './jobs-port';
import { VideoInputResolver } from './video-input.resolver';

export interface CreateJobInput<T extends JobType> {
  accountId: string;
  jobType: T;
  videoUrl: string;
  options: JobOptionsByType[T];
  idempotency?: IdempotencyInput;
}

// Sends the create command; a replayed Idempotency-Key comes back as the original job and renders to
// the same body as the first answer. A key reused with another body is the jobs service's 409.
@Injectable()
export class CreateJobService {
  constructor(
    @Inject(JOBS_PORT) private readonly jobs: JobsPort,
    private readonly inputs: VideoInputResolver,
  ) {}

  async execute<T extends JobType>(input: CreateJobInput<T>): Promise<JobObject> {
    const { job } = await this.jobs.create({
      version: 1,
      account_id: input.accountId,
      job_type: input.jobType,
      input: await this.inputs.resolve(input.accountId, input.videoUrl),
      options: input.options,
      ...(input.idempotency && { idempotency: input.idempotency }),
    });
    return renderCreatedJob(job);
  }
}
