import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD, APP_PIPE } from '@nestjs/core';
import { ObjectStorage } from '@vj/storage';
import type { DataSource } from 'typeorm';
import { BearerAuthGuard } from '../auth/bearer-auth.guard';
import { BILLING_PORT } from '../billing/billing-port';
import { BillingController } from '../billing/billing.controller';
import { EstimatesController } from '../billing/estimates.controller';
import { ReadBillingService } from '../billing/read-billing.service';
import { GATEWAY_CONFIG } from '../config/gateway-config.token';
import type { GatewayConfig } from '../gateway.env';
import { HealthController } from '../health/health.controller';
import { HealthService } from '../health/health.service';
import { SERVICE_HEALTH_PORT } from '../health/service-health.port';
import { RequestValidationPipe } from '../http/request-validation.pipe';
import { AccountsRepository } from '../identity/accounts.repository';
import { AuthenticateApiKeyUseCase } from '../identity/authenticate-api-key.use-case';
import { IdentityChangeListener } from '../identity/identity-change-listener';
import { PrincipalCache } from '../identity/principal-cache';
import { CancelJobService } from '../jobs/cancel-job.service';
import { DeleteJobService } from '../jobs/delete-job.service';
import { CleanAudioVideoController } from '../jobs/clean-audio-video.controller';
import { CreateJobService } from '../jobs/create-job.service';
import { JobPresenter } from '../jobs/job-presenter.service';
import { FollowJobService } from '../jobs/follow-job.service';
import { JobFollowResponder } from '../jobs/job-follow-responder';
import { JOB_UPDATES_PORT } from '../jobs/job-updates-port';
import { JOBS_PORT } from '../jobs/jobs-port';
import { JobsListController } from '../jobs/jobs-list.controller';
import { MEDIA_PROBE_PORT } from '../jobs/media-probe-port';
import { ProbedDurations } from '../jobs/probed-durations';
import { QuoteJobService } from '../jobs/quote-job.service';
import { ReadJobsService } from '../jobs/read-jobs.service';
import { SettledJobCache } from '../jobs/settled-job-cache';
import { CurrentPrices, PRICE_LIST_TTL_MS } from '../billing/current-prices';
import { VideoBackgroundRemovalController } from '../jobs/video-background-removal.controller';
import { VideoInputResolver } from '../jobs/video-input.resolver';
import type { GatewayMessaging } from '../messaging/gateway-messaging';
import { CreateUploadService } from '../uploads/create-upload.service';
import { UploadsController } from '../uploads/uploads.controller';
import { UploadsRepository } from '../uploads/uploads.repository';
import { RateLimitBuckets } from '../rate-limits/rate-limit-buckets';
import { RateLimiter } from '../rate-limits/rate-limiter';
import { GatewayResources } from './gateway-resources';
import { HousekeepingLifecycle } from './housekeeping.lifecycle';
import { WebhookEndpointsController } from '../webhooks/webhook-endpoints.controller';
import { WebhookSecretController } from '../webhooks/webhook-secret.controller';
import { WEBHOOKS_PORT } from '../webhooks/webhooks-port';

export interface GatewayDeps {
  config: GatewayConfig;
  storage: ObjectStorage;
  dataSource: DataSource;
  messaging: GatewayMessaging;
}

@Module({})
export class GatewayModule {
  static register(deps: GatewayDeps): DynamicModule {
    const buckets = new RateLimitBuckets(deps.dataSource);
    const uploads = new UploadsRepository(deps.dataSource);
    const principals = new PrincipalCache(deps.config.API_KEY_CACHE_SECONDS * 1000);
    return {
      module: GatewayModule,
      controllers: [
        VideoBackgroundRemovalController,
        CleanAudioVideoController,
        JobsListController,
        EstimatesController,
        BillingController,
        UploadsController,
        WebhookEndpointsController,
        WebhookSecretController,
        HealthController,
      ],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: deps.config },
        { provide: ObjectStorage, useValue: deps.storage },
        { provide: JOBS_PORT, useValue: deps.messaging.jobs },
        { provide: JOB_UPDATES_PORT, useValue: deps.messaging.jobUpdates },
        { provide: BILLING_PORT, useValue: deps.messaging.billing },
        { provide: MEDIA_PROBE_PORT, useValue: deps.messaging.mediaProbe },
        { provide: WEBHOOKS_PORT, useValue: deps.messaging.webhooks },
        { provide: ProbedDurations, useValue: new ProbedDurations(deps.config.ESTIMATE_DURATION_TTL_SECONDS * 1000) },
        { provide: SERVICE_HEALTH_PORT, useValue: deps.messaging.serviceHealth },
        { provide: AccountsRepository, useValue: new AccountsRepository(deps.dataSource) },
        { provide: PrincipalCache, useValue: principals },
        { provide: SettledJobCache, useValue: new SettledJobCache(deps.config.SETTLED_JOB_CACHE_SECONDS * 1000) },
        { provide: IdentityChangeListener, useValue: new IdentityChangeListener(deps.config.DATABASE_URL, principals) },
        {
          provide: AuthenticateApiKeyUseCase,
          useFactory: (accounts: AccountsRepository) => new AuthenticateApiKeyUseCase(accounts, principals),
          inject: [AccountsRepository],
        },
        { provide: GatewayResources, useValue: new GatewayResources(deps.dataSource, deps.messaging) },
        { provide: RateLimitBuckets, useValue: buckets },
        { provide: UploadsRepository, useValue: uploads },
        { provide: HousekeepingLifecycle, useValue: new HousekeepingLifecycle(buckets, uploads, deps.config.UPLOAD_RETENTION_HOURS * 3_600_000) },
        RateLimiter,
        { provide: APP_GUARD, useClass: BearerAuthGuard },
        { provide: APP_PIPE, useValue: new RequestValidationPipe() },
        VideoInputResolver,
        JobPresenter,
        { provide: PRICE_LIST_TTL_MS, useValue: deps.config.PRICE_LIST_CACHE_SECONDS * 1000 },
        CurrentPrices,
        QuoteJobService,
        CreateJobService,
        ReadJobsService,
        FollowJobService,
        JobFollowResponder,
        CancelJobService,
        DeleteJobService,
        ReadBillingService,
        CreateUploadService,
        HealthService,
      ],
    };
  }
}
