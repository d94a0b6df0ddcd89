import { Body, Controller, Headers, HttpCode, Post, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiTags } from '@nestjs/swagger';
import type { JobObject } from '@vj/contracts';
import { CreateCleanAudioVideoDto } from '@vj/http-contracts';
import type { ServerResponse } from 'node:http';
import { Caller } from '../auth/caller.decorator';
import type { Principal } from '../identity';
import { ApiBody, ApiRequestErrors, Operation } from '../http/openapi-responses';
import { CancelJobService } from './cancel-job.service';
import { CreateJobService } from './create-job.service';
import { DeleteJobService } from './delete-job.service';
import { ApiCreateWait } from './follow-openapi';
import { Idempotency, type IdempotencyInput } from './idempotency.decorators';
import { JobFollowResponder } from './job-follow-responder';
import { cleanAudioOptions } from './job-options';
import { JobResourceController } from './job-resource.controller';

const TYPE = 'clean-audio-video';

@ApiTags(TYPE)
@ApiBearerAuth()
@ApiRequestErrors(401, 503)
@Controller(`v1/${TYPE}`)
export class CleanAudioVideoController extends JobResourceController({ type: TYPE, schema: 'CleanAudioVideoJob', operation: 'CleanAudioVideo', noun: 'clean-audio' }) {
  constructor(
    private readonly createJob: CreateJobService,
    cancelJob: CancelJobService,
    deleteJob: DeleteJobService,
    follow: JobFollowResponder,
  ) {
    super(cancelJob, deleteJob, follow);
  }

  @Operation('createCleanAudioVideoJob', 'Create a clean-audio job', 'Accepted at once (202, PROCESSING, credits_estimated); the work runs asynchronously. Follow it with GET (Prefer: wait=N), the events stream or a webhook.')
  @Post()
  @HttpCode(202)
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'same key + same body replays the first answer; another body is 409' })
  @ApiBody(202, 'CleanAudioVideoJob', 'job accepted')
  @ApiCreateWait('CleanAudioVideoJob')
  @ApiRequestErrors(400, 409, 413, 422)
  async create(
    @Caller() caller: Principal,
    @Body() body: CreateCleanAudioVideoDto,
    @Idempotency('clean-audio-video') idempotency: IdempotencyInput,
    @Headers('prefer') prefer: string | undefined,
    @Res({ passthrough: true }) res: ServerResponse,
  ): Promise<JobObject> {
    const created = await this.createJob.execute({ accountId: caller.accountId, limits: caller.limits, jobType: TYPE, videoUrl: body.video_url, options: cleanAudioOptions(body), idempotency, webhookUrl: body.webhook_url });
    return this.follow.afterCreate(caller.accountId, TYPE, created, prefer, res);
  }
}
