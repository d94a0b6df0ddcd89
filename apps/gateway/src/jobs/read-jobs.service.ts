import { Inject, Injectable } from '@nestjs/common';
import { LIST_LIMIT_DEFAULT, type JobObject, type JobType, type ListJobsQuery } from '@vj/contracts';
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

  // job_type scopes the lookup: a job of the other type is not found (api-v1.md). A settled job may
  // come from the cache; its URLs are presigned on every read either way.
  async get(accountId: string, jobType: JobType, jobId: string): Promise<JobObject> {
    let record = this.settled.get(accountId, jobType, jobId);
    if (!record) {
      record = await this.jobs.get({ version: 1, account_id: accountId, job_id: jobId, job_type: jobType });
      this.settled.remember(record);
    }
    return this.presenter.present(record);
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
