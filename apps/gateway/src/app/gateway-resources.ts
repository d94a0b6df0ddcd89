import type { OnApplicationShutdown } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { GatewayMessaging } from '../messaging/gateway-messaging';

// Connections made before the Nest app exists; closed when the app closes (SIGTERM or app.close()).
export class GatewayResources implements OnApplicationShutdown {
  constructor(
    private readonly dataSource: DataSource,
    private readonly messaging: GatewayMessaging,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.messaging.close();
    await this.dataSource.destroy();
  }
}
