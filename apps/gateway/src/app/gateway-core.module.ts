import { Global, Module, type DynamicModule } from '@nestjs/common';
import { ObjectStorage } from '@vj/storage';
import { DataSource } from 'typeorm';
import { BILLING_PORT } from '../billing';
import { GATEWAY_CONFIG } from '../config/gateway-config.token';
import type { GatewayConfig } from '../gateway.env';
import { SERVICE_HEALTH_PORT } from '../health/service-health.port';
import { JOB_UPDATES_PORT, JOBS_PORT, MEDIA_PROBE_PORT } from '../jobs';
import type { GatewayMessaging } from '../messaging/gateway-messaging';
import { WEBHOOKS_PORT } from '../webhooks';
import { GatewayResources } from './gateway-resources';

export interface GatewayDeps {
  config: GatewayConfig;
  storage: ObjectStorage;
  dataSource: DataSource;
  messaging: GatewayMessaging;
}

// What the boot steps made before the Nest app exists (config, storage, the database, the other
// services' ports), given to every feature module; closed with the app (GatewayResources).
@Global()
@Module({})
export class GatewayCoreModule {
  static register(deps: GatewayDeps): DynamicModule {
    const providers = [
      { provide: GATEWAY_CONFIG, useValue: deps.config },
      { provide: ObjectStorage, useValue: deps.storage },
      { provide: DataSource, useValue: deps.dataSource },
      { provide: JOBS_PORT, useValue: deps.messaging.jobs },
      { provide: JOB_UPDATES_PORT, useValue: deps.messaging.jobUpdates },
      { provide: BILLING_PORT, useValue: deps.messaging.billing },
      { provide: MEDIA_PROBE_PORT, useValue: deps.messaging.mediaProbe },
      { provide: WEBHOOKS_PORT, useValue: deps.messaging.webhooks },
      { provide: SERVICE_HEALTH_PORT, useValue: deps.messaging.serviceHealth },
    ];
    return {
      module: GatewayCoreModule,
      providers: [...providers, { provide: GatewayResources, useValue: new GatewayResources(deps.dataSource, deps.messaging) }],
      exports: providers.map((provider) => provider.provide),
    };
  }
}
