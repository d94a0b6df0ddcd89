import { Delete, Get, Headers, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import type { JobObject, JobType } from '@vj/contracts';
import type { SchemaId } from '@vj/http-contracts';
import type { ServerResponse } from 'node:http';
import { AccountId } from '../auth/account-id.decorator';
import { ApiBody, ApiRequestErrors, Operation } from '../http/openapi-responses';
import { CancelJobService } from './cancel-job.service';
import { DeleteJobService } from './delete-job.service';
import { ApiJobEventStream, ApiReadWait } from './follow-openapi';
import { JobFollowResponder } from './job-follow-responder';
import { JobIdPipe } from './job-id.pipe';
import { JobReportService, type JobReport } from './job-report.service';

// How one job type's routes are named: its path segment, its job's schema, its quality report's
// schema, the stem of its operation ids and the noun its summaries use.
export interface JobResourceNames {
  type: JobType;
  schema: SchemaId;
  reportSchema: SchemaId;
  operation: string;
  noun: string;
}

// The routes every job type has besides its create: read (Prefer: wait), follow as Server-Sent
// Events, cancel, delete. A job type's controller extends the class made here with its create (the
// body differs per type) and its own @Controller path; Nest and Swagger read these inherited routes
// as the controller's own.
export function JobResourceController(names: JobResourceNames) {
  const { type, schema, reportSchema, operation, noun } = names;

  abstract class JobResource {
    constructor(
      protected readonly cancelJob: CancelJobService,
      protected readonly deleteJob: DeleteJobService,
      protected readonly follow: JobFollowResponder,
      protected readonly reports: JobReportService,
    ) {}

    @Operation(`get${operation}Job`, `Get a ${noun} job`)
    @Get(':job_id')
    @ApiReadWait(schema)
    @ApiRequestErrors(404)
    get(
      @AccountId() accountId: string,
      @Param('job_id', JobIdPipe) jobId: string,
      @Headers('prefer') prefer: string | undefined,
      @Res({ passthrough: true }) res: ServerResponse,
    ): Promise<JobObject> {
      return this.follow.read(accountId, type, jobId, prefer, res);
    }

    @Operation(`stream${operation}JobEvents`, `Follow a ${noun} job as Server-Sent Events`)
    @Get(':job_id/events')
    @ApiJobEventStream()
    @ApiRequestErrors(404)
    events(
      @AccountId() accountId: string,
      @Param('job_id', JobIdPipe) jobId: string,
      @Headers('last-event-id') lastEventId: string | undefined,
      @Res() res: ServerResponse,
    ): Promise<void> {
      return this.follow.stream(accountId, type, jobId, lastEventId, res);
    }

    @Operation(
      `get${operation}JobReport`,
      `Get a COMPLETED ${noun} job's quality report`,
      'What the job measured of its own work, outside the job object: 409 until the job is COMPLETED, 404 for a job without one (a cut-out export: see its source job).',
    )
    @Get(':job_id/report')
    @ApiBody(200, reportSchema, 'the quality report')
    @ApiRequestErrors(404, 409)
    report(@AccountId() accountId: string, @Param('job_id', JobIdPipe) jobId: string): Promise<JobReport> {
      return this.reports.get(accountId, type, jobId);
    }

    @Operation(`cancel${operation}Job`, `Cancel a ${noun} job`, 'Nothing is charged for a cancelled job.')
    @Post(':job_id/cancel')
    @HttpCode(200)
    @ApiBody(200, schema, 'the job, CANCELLED')
    @ApiRequestErrors(404, 409)
    cancel(@AccountId() accountId: string, @Param('job_id', JobIdPipe) jobId: string): Promise<JobObject> {
      return this.cancelJob.execute(accountId, type, jobId);
    }

    @Operation(`delete${operation}Job`, `Delete a ${noun} job and its files`)
    @Delete(':job_id')
    @HttpCode(204)
    @ApiResponse({ status: 204, description: "the job's files are deleted; the job reads as 404 not_found from then on; deleting again is 204 too" })
    @ApiRequestErrors(404, 409)
    delete(@AccountId() accountId: string, @Param('job_id', JobIdPipe) jobId: string): Promise<void> {
      return this.deleteJob.execute(accountId, type, jobId);
    }
  }
  return JobResource;
}
