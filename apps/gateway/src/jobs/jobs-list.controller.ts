import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { ListJobsQuery } from '@vj/http-contracts';
import { AccountId } from '../auth/account-id.decorator';
import { ApiBody, ApiRequestErrors, Operation } from '../http/openapi-responses';
import { ReadJobsService, type JobListPage } from './read-jobs.service';

@ApiTags('jobs')
@ApiBearerAuth()
@Controller('v1/jobs')
export class JobsListController {
  constructor(private readonly readJobs: ReadJobsService) {}

  @Operation('listJobs', 'List jobs of every type', 'Newest first, filtered by type and status, paged with next_cursor.')
  @Get()
  @ApiBody(200, 'JobList', 'jobs of both types, newest first')
  @ApiRequestErrors(401, 422, 503)
  list(@AccountId() accountId: string, @Query() query: ListJobsQuery): Promise<JobListPage> {
    return this.readJobs.list(accountId, query);
  }
}
