import { Inject, Injectable } from '@nestjs/common';
import type { JobObject, JobType } from '@vj/contracts';
import { JobPresenter } from './job-presenter.service';
import { JOBS_PORT, type JobsPort } from './jobs-port';

// The jobs service owns the state machine: it answers conflict (409) for a job already final.
@Injectable()
export class CancelJobService {
  constructor(
    @Inject(JOBS_PORT) private readonly jobs: JobsPort,
    private readonly presenter: JobPresenter,
  ) {}

  async execute(accountId: string, jobType: JobType, jobId: string): Promise<JobObject> {
    const record = await this.jobs.cancel({ version: 1, account_id: accountId, job_id: jobId, job_type: jobType });
    return this.presenter.present(record);
  }
}
