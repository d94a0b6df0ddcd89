import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity';
import { HealthController } from './health.controller';
import { HealthService } from './health.service';

// GET /healthz: the gateway's own connections and the other services' health pings.
@Module({ imports: [IdentityModule], controllers: [HealthController], providers: [HealthService] })
export class HealthModule {}
