import { Inject, Injectable } from '@nestjs/common';
import type { JobType } from '@vj/contracts';
import { JOBS_PORT, type JobsPort } from './jobs-port';
import { SettledJobCache } from './settled-job-cache';

// The jobs service marks the job deleted and deletes its files (decision 0024): 409 while it is still
// PROCESSING, 404 for a job that is not the caller's.
@Injectable()
export class DeleteJobService {
  constructor(
    @Inject(JOBS_PORT) private readonly jobs: JobsPort,
    private readonly settled: SettledJobCache,
  ) {}

  async execute(accountId: string, jobType: JobType, jobId: string): Promise<void> {
    await this.jobs.delete({ version: 1, account_id: accountId, job_id: jobId, job_type: jobType });
    this.settled.forget(jobId);
  }
}
