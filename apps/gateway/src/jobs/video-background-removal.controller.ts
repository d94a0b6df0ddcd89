import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CreateVideoBackgroundRemovalDto, type JobObject } from '@vj/contracts';
import { AccountId } from '../auth/account-id.decorator';
import { Caller } from '../auth/caller.decorator';
import type { Principal } from '../identity/principal';
import type { ServerResponse } from 'node:http';
import { ApiBody, ApiRequestErrors, Operation } from '../http/openapi-responses';
import { CancelJobService } from './cancel-job.service';
import { DeleteJobService } from './delete-job.service';
import { ApiCreateWait, ApiJobEventStream, ApiReadWait } from './follow-openapi';
import { JobFollowResponder } from './job-follow-responder';
import { CreateJobService } from './create-job.service';
import { Idempotency, type IdempotencyInput } from './idempotency.decorators';
import { JobIdPipe } from './job-id.pipe';
import { backgroundRemovalOptions } from './job-options';

const TYPE = 'video-background-removal';

@ApiTags(TYPE)
@ApiBearerAuth()
@ApiRequestErrors(401, 503)
@Controller(`v1/${TYPE}`)
export class VideoBackgroundRemovalController {
  constructor(
    private readonly createJob: CreateJobService,
    private readonly cancelJob: CancelJobService,
    private readonly deleteJob: DeleteJobService,
    private readonly follow: JobFollowResponder,
  ) {}

  @Operation('createVideoBackgroundRemovalJob', 'Create a background-removal job', 'Accepted at once (202, PROCESSING, credits_estimated); the work runs asynchronously. Follow it with GET (Prefer: wait=N), the events stream or a webhook.')
  @Post()
  @HttpCode(202)
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'same key + same body replays the first answer; another body is 409' })
  @ApiBody(202, 'VideoBackgroundRemovalJob', 'job accepted')
  @ApiCreateWait('VideoBackgroundRemovalJob')
  @ApiRequestErrors(400, 409, 413, 422)
  async create(
    @Caller() caller: Principal,
    @Body() body: CreateVideoBackgroundRemovalDto,
    @Idempotency('video-background-removal') idempotency: IdempotencyInput,
    @Headers('prefer') prefer: string | undefined,
    @Res({ passthrough: true }) res: ServerResponse,
  ): Promise<JobObject> {
    const created = await this.createJob.execute({ accountId: caller.accountId, limits: caller.limits, jobType: TYPE, videoUrl: body.video_url, options: backgroundRemovalOptions(body), idempotency, webhookUrl: body.webhook_url });
    return this.follow.afterCreate(caller.accountId, TYPE, created, prefer, res);
  }

  @Operation('getVideoBackgroundRemovalJob', 'Get a background-removal job')
  @Get(':job_id')
  @ApiReadWait('VideoBackgroundRemovalJob')
  @ApiRequestErrors(404)
  get(
    @AccountId() accountId: string,
    @Param('job_id', JobIdPipe) jobId: string,
    @Headers('prefer') prefer: string | undefined,
    @Res({ passthrough: true }) res: ServerResponse,
  ): Promise<JobObject> {
    return this.follow.read(accountId, TYPE, jobId, prefer, res);
  }

  @Operation('streamVideoBackgroundRemovalJobEvents', 'Follow a background-removal job as Server-Sent Events')
  @Get(':job_id/events')
  @ApiJobEventStream()
  @ApiRequestErrors(404)
  events(
    @AccountId() accountId: string,
    @Param('job_id', JobIdPipe) jobId: string,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() res: ServerResponse,
  ): Promise<void> {
    return this.follow.stream(accountId, TYPE, jobId, lastEventId, res);
  }

  @Operation('cancelVideoBackgroundRemovalJob', 'Cancel a background-removal job', 'Nothing is charged for a cancelled job.')
  @Post(':job_id/cancel')
  @HttpCode(200)
  @ApiBody(200, 'VideoBackgroundRemovalJob', 'the job, CANCELLED')
  @ApiRequestErrors(404, 409)
  cancel(@AccountId() accountId: string, @Param('job_id', JobIdPipe) jobId: string): Promise<JobObject> {
    return this.cancelJob.execute(accountId, TYPE, jobId);
  }

  @Operation('deleteVideoBackgroundRemovalJob', 'Delete a background-removal job and its files')
  @Delete(':job_id')
  @HttpCode(204)
  @ApiResponse({ status: 204, description: "the job's files are deleted; the job reads as 404 not_found from then on; deleting again is 204 too" })
  @ApiRequestErrors(404, 409)
  delete(@AccountId() accountId: string, @Param('job_id', JobIdPipe) jobId: string): Promise<void> {
    return this.deleteJob.execute(accountId, TYPE, jobId);
  }
}
