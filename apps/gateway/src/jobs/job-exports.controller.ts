import { Body, Controller, Headers, HttpCode, Param, Post, Res, type Type } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiTags } from '@nestjs/swagger';
import type { JobObject, JobType } from '@vj/contracts';
import type { ServerResponse } from 'node:http';
import { Caller } from '../auth/caller.decorator';
import type { Principal } from '../identity';
import { ApiBody, ApiRequestErrors, Operation } from '../http/openapi-responses';
import { CreateJobService } from './create-job.service';
import { ApiCreateWait } from './follow-openapi';
import { ExportIdempotency, type IdempotencyInput } from './idempotency.decorators';
import { JobFollowResponder } from './job-follow-responder';
import { JobIdPipe } from './job-id.pipe';
import type { GatewayJobType, JobCreateBody, JobExportBody, JobTypeExports } from './types/gateway-job-type';

// POST /v1/{type}/{job_id}/exports for a job type that has exports (decision 0093): a new job of that
// type, with its own job_id and lifecycle, made from what the COMPLETED source job kept.
export function jobExportsController<T extends JobType>(jobType: GatewayJobType<T, JobCreateBody>, exports: JobTypeExports<T, JobExportBody>): Type<unknown> {
  const { type, schema, operation, noun } = jobType.names;

  @ApiTags(type)
  @ApiBearerAuth()
  @ApiRequestErrors(401, 503)
  @Controller(`v1/${type}`)
  class JobExportsController {
    constructor(
      private readonly createJob: CreateJobService,
      private readonly follow: JobFollowResponder,
    ) {}

    @Operation(
      `export${operation}Job`,
      `Export a COMPLETED ${noun} job again with other options`,
      'A new job (202, PROCESSING, credits_estimated) that delivers the source job again from what it kept, without running the model, at the export price. The source must be COMPLETED (else 409) and its files still kept (else 404).',
    )
    @Post(':job_id/exports')
    @HttpCode(202)
    @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'same key + same body and job replays the first answer; another is 409' })
    @ApiBody(202, schema, 'export accepted')
    @ApiCreateWait(schema)
    @ApiRequestErrors(400, 404, 409, 413, 422)
    async create(
      @Caller() caller: Principal,
      @Param('job_id', JobIdPipe) sourceJobId: string,
      @Body() body: JobExportBody,
      @ExportIdempotency(type) idempotency: IdempotencyInput,
      @Headers('prefer') prefer: string | undefined,
      @Res({ passthrough: true }) res: ServerResponse,
    ): Promise<JobObject> {
      const created = await this.createJob.executeExport({ accountId: caller.accountId, limits: caller.limits, jobType: type, sourceJobId, body, idempotency });
      return this.follow.afterCreate(caller.accountId, type, created, prefer, res);
    }
  }

  // As for the create (job-type.controller.ts): the body's class is known only here.
  const parameterTypes = Reflect.getMetadata('design:paramtypes', JobExportsController.prototype, 'create') as unknown[];
  Reflect.defineMetadata('design:paramtypes', parameterTypes.map((parameter, index) => (index === 2 ? exports.body : parameter)), JobExportsController.prototype, 'create');
  Object.defineProperty(JobExportsController, 'name', { value: `${operation}ExportsController` });
  return JobExportsController;
}
