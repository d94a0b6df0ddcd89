import { Inject, Injectable } from '@nestjs/common';
import type { JobObject, JobType } from '@vj/contracts';
import { LIST_LIMIT_DEFAULT, type ListJobsQuery } from '@vj/http-contracts';
import { JobPresenter } from './job-presenter.service';
import { JOBS_PORT, type JobsPort } from './jobs-port';
import { SettledJobCache } from './settled-job-cache';

export interface JobListItem {
  type: JobType;
  created_at: string;
  job: JobObject;
}

export interface JobListPage {
  data: JobListItem[];
  next_cursor: string | null;
}

@Injectable()
export class ReadJobsService {
  constructor(
    @Inject(JOBS_PORT) private readonly jobs: JobsPort,
    private readonly presenter: JobPresenter,
    private readonly settled: SettledJobCache,
  ) {}

  // job_type scopes the lookup: a job of the other type is not found (docs/spec/api-v1.md). A settled job
  // may be answered from the cache, URLs presigned a moment ago included.
  async get(accountId: string, jobType: JobType, jobId: string): Promise<JobObject> {
    const cached = this.settled.get(accountId, jobType, jobId);
    if (cached) return cached;
    const record = await this.jobs.get({ version: 1, account_id: accountId, job_id: jobId, job_type: jobType });
    const job = await this.presenter.present(record);
    this.settled.remember(record, job);
    return job;
  }

  async list(accountId: string, query: ListJobsQuery): Promise<JobListPage> {
    const page = await this.jobs.list({
      version: 1,
      account_id: accountId,
      limit: query.limit ?? LIST_LIMIT_DEFAULT,
      ...(query.type && { job_type: query.type }),
      ...(query.status && { status: query.status }),
      ...(query.cursor && { cursor: query.cursor }),
    });
    const data = await Promise.all(
      page.jobs.map(async (record) => ({ type: record.job_type, created_at: record.created_at, job: await this.presenter.present(record) })),
    );
    return { data, next_cursor: page.next_cursor };
  }
}
