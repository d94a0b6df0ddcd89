import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD, APP_PIPE } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { BearerAuthGuard } from '../auth/bearer-auth.guard';
import { BillingApiModule } from '../billing';
import { GATEWAY_CONFIG } from '../config/gateway-config.token';
import type { GatewayConfig } from '../gateway.env';
import { HealthModule } from '../health/health.module';
import { RequestValidationPipe } from '../http/request-validation.pipe';
import { IdentityModule } from '../identity';
import { JobsApiModule } from '../jobs';
import { RateLimitBuckets } from '../rate-limits/rate-limit-buckets';
import { RateLimiter } from '../rate-limits/rate-limiter';
import { MultipartUploadsService, UploadsModule, UploadsRepository } from '../uploads';
import { WebhooksApiModule } from '../webhooks';
import { GatewayCoreModule, type GatewayDeps } from './gateway-core.module';
import { HousekeepingLifecycle } from './housekeeping.lifecycle';

// The gateway: its feature modules (each imports another only through its public index.ts), and
// what serves them all: authentication and rate limits on every route, request validation, and the
// housekeeping of expired buckets and uploads.
@Module({})
export class GatewayModule {
  static register(deps: GatewayDeps): DynamicModule {
    return {
      module: GatewayModule,
      // In this order the OpenAPI document lists the job routes first, as it always has.
      imports: [GatewayCoreModule.register(deps), JobsApiModule, BillingApiModule, UploadsModule, WebhooksApiModule, HealthModule, IdentityModule],
      providers: [
        { provide: RateLimitBuckets, useFactory: (dataSource: DataSource) => new RateLimitBuckets(dataSource), inject: [DataSource] },
        RateLimiter,
        {
          provide: HousekeepingLifecycle,
          useFactory: (buckets: RateLimitBuckets, uploads: UploadsRepository, multipart: MultipartUploadsService, config: GatewayConfig) =>
            new HousekeepingLifecycle(buckets, uploads, multipart, config.UPLOAD_RETENTION_HOURS * 3_600_000),
          inject: [RateLimitBuckets, UploadsRepository, MultipartUploadsService, GATEWAY_CONFIG],
        },
        { provide: APP_GUARD, useClass: BearerAuthGuard },
        { provide: APP_PIPE, useValue: new RequestValidationPipe() },
      ],
    };
  }
}
