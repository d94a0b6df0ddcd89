import { Module } from '@nestjs/common';
import { BillingApiModule } from '../billing';
import { GATEWAY_CONFIG } from '../config/gateway-config.token';
import type { GatewayConfig } from '../gateway.env';
import { IdentityModule } from '../identity';
import { UploadsModule } from '../uploads';
import { CancelJobService } from './cancel-job.service';
import { JobReportService } from './job-report.service';
import { CreateJobService } from './create-job.service';
import { DeleteJobService } from './delete-job.service';
import { EstimatesController } from './estimates.controller';
import { FollowJobService } from './follow-job.service';
import { JobFollowResponder } from './job-follow-responder';
import { JobPresenter } from './job-presenter.service';
import { jobExportsController } from './job-exports.controller';
import { jobTypeController } from './job-type.controller';
import { JobsListController } from './jobs-list.controller';
import { ProbedDurations } from './probed-durations';
import { QuoteJobService } from './quote-job.service';
import { ReadJobsService } from './read-jobs.service';
import { SettledJobCache } from './settled-job-cache';
import { gatewayJobTypes } from './types/gateway-job-types';
import { OwnUploads } from './own-uploads';
import { VideoInputResolver } from './video-input.resolver';

// The job resources: create (quoted and held first), read, list, follow, cancel and delete, exports of a
// COMPLETED job, and the estimate of what a job would cost.
@Module({
  imports: [IdentityModule, UploadsModule, BillingApiModule],
  controllers: [
    ...gatewayJobTypes().flatMap((jobType) => [jobTypeController(jobType), ...(jobType.exports ? [jobExportsController(jobType, jobType.exports)] : [])]),
    JobsListController,
    EstimatesController,
  ],
  providers: [
    { provide: ProbedDurations, useFactory: (config: GatewayConfig) => new ProbedDurations(config.ESTIMATE_DURATION_TTL_SECONDS * 1000), inject: [GATEWAY_CONFIG] },
    { provide: SettledJobCache, useFactory: (config: GatewayConfig) => new SettledJobCache(config.SETTLED_JOB_CACHE_SECONDS * 1000), inject: [GATEWAY_CONFIG] },
    OwnUploads,
    VideoInputResolver,
    JobPresenter,
    QuoteJobService,
    CreateJobService,
    ReadJobsService,
    FollowJobService,
    JobFollowResponder,
    CancelJobService,
    JobReportService,
    DeleteJobService,
  ],
})
export class JobsApiModule {}
