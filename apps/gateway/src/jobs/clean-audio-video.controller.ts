import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CreateCleanAudioVideoDto, type JobObject } from '@vj/contracts';
import { AccountId } from '../auth/account-id.decorator';
import { Caller } from '../auth/caller.decorator';
import type { Principal } from '../identity/principal';
import { ApiBody, ApiRequestErrors } from '../http/openapi-responses';
import { CancelJobService } from './cancel-job.service';
import { DeleteJobService } from './delete-job.service';
import { CreateJobService } from './create-job.service';
import { Idempotency, type IdempotencyInput } from './idempotency.decorators';
import { JobIdPipe } from './job-id.pipe';
import { cleanAudioOptions } from './job-options';
import { ReadJobsService } from './read-jobs.service';

const TYPE = 'clean-audio-video';

@ApiTags(TYPE)
@ApiBearerAuth()
@ApiRequestErrors(401, 503)
@Controller(`v1/${TYPE}`)
export class CleanAudioVideoController {
  constructor(
    private readonly createJob: CreateJobService,
    private readonly readJobs: ReadJobsService,
    private readonly cancelJob: CancelJobService,
    private readonly deleteJob: DeleteJobService,
  ) {}

  @Post()
  @HttpCode(202)
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'same key + same body replays the first answer; another body is 409' })
  @ApiBody(202, 'CleanAudioVideoJob', 'job accepted')
  @ApiRequestErrors(400, 409, 413, 422)
  create(
    @Caller() caller: Principal,
    @Body() body: CreateCleanAudioVideoDto,
    @Idempotency('clean-audio-video') idempotency: IdempotencyInput,
  ): Promise<JobObject> {
    return this.createJob.execute({ accountId: caller.accountId, limits: caller.limits, jobType: TYPE, videoUrl: body.video_url, options: cleanAudioOptions(body), idempotency });
  }

  @Get(':job_id')
  @ApiBody(200, 'CleanAudioVideoJob', 'the job')
  @ApiRequestErrors(404)
  get(@AccountId() accountId: string, @Param('job_id', JobIdPipe) jobId: string): Promise<JobObject> {
    return this.readJobs.get(accountId, TYPE, jobId);
  }

  @Post(':job_id/cancel')
  @HttpCode(200)
  @ApiBody(200, 'CleanAudioVideoJob', 'the job, CANCELLED')
  @ApiRequestErrors(404, 409)
  cancel(@AccountId() accountId: string, @Param('job_id', JobIdPipe) jobId: string): Promise<JobObject> {
    return this.cancelJob.execute(accountId, TYPE, jobId);
  }

  @Delete(':job_id')
  @HttpCode(204)
  @ApiResponse({ status: 204, description: "the job's files are deleted; the job reads as 404 not_found from then on; deleting again is 204 too" })
  @ApiRequestErrors(404, 409)
  delete(@AccountId() accountId: string, @Param('job_id', JobIdPipe) jobId: string): Promise<void> {
    return this.deleteJob.execute(accountId, TYPE, jobId);
  }
}
