import { Body, Controller, Headers, HttpCode, Post, Res, type Type } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiTags } from '@nestjs/swagger';
import type { JobObject, JobType } from '@vj/contracts';
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
import { JobReportService } from './job-report.service';
import { JobResourceController } from './job-resource.controller';
import type { GatewayJobType, JobCreateBody } from './types/gateway-job-type';

// The controller of one job type, made from its registry entry (types/gateway-job-types.ts): its create
// here, and the routes every type has (job-resource.controller.ts).
export function jobTypeController<T extends JobType>(jobType: GatewayJobType<T, JobCreateBody>): Type<unknown> {
  const { names, options } = jobType;
  const { type, schema, operation, noun } = names;

  @ApiTags(type)
  @ApiBearerAuth()
  @ApiRequestErrors(401, 503)
  @Controller(`v1/${type}`)
  class JobTypeController extends JobResourceController(names) {
    constructor(
      private readonly createJob: CreateJobService,
      cancelJob: CancelJobService,
      deleteJob: DeleteJobService,
      follow: JobFollowResponder,
      reports: JobReportService,
    ) {
      super(cancelJob, deleteJob, follow, reports);
    }

    @Operation(`create${operation}Job`, `Create a ${noun} job`, 'Accepted at once (202, PROCESSING, credits_estimated); the work runs asynchronously. Follow it with GET (Prefer: wait=N), the events stream or a webhook.')
    @Post()
    @HttpCode(202)
    @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'same key + same body replays the first answer; another body is 409' })
    @ApiBody(202, schema, 'job accepted')
    @ApiCreateWait(schema)
    @ApiRequestErrors(400, 409, 413, 422)
    async create(
      @Caller() caller: Principal,
      @Body() body: JobCreateBody,
      @Idempotency(type) idempotency: IdempotencyInput,
      @Headers('prefer') prefer: string | undefined,
      @Res({ passthrough: true }) res: ServerResponse,
    ): Promise<JobObject> {
      const created = await this.createJob.execute({ accountId: caller.accountId, limits: caller.limits, jobType: type, videoUrl: body.video_url, options: options(body), idempotency, webhookUrl: body.webhook_url });
      return this.follow.afterCreate(caller.accountId, type, created, prefer, res);
    }
  }

  // The body's class is known only here: the validation pipe and the OpenAPI request body read it from
  // the parameters' design types, which TypeScript wrote as the JobCreateBody interface (Object).
  const parameterTypes = Reflect.getMetadata('design:paramtypes', JobTypeController.prototype, 'create') as unknown[];
  Reflect.defineMetadata('design:paramtypes', parameterTypes.map((parameter, index) => (index === 1 ? jobType.body : parameter)), JobTypeController.prototype, 'create');
  // Nest names the controller in its logs by its class.
  Object.defineProperty(JobTypeController, 'name', { value: `${operation}Controller` });
  return JobTypeController;
}
