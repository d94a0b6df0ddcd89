import type { OnApplicationShutdown } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import type { DataSource } from 'typeorm';

// Closes NATS and the database last: Nest runs shutdown hooks after the transport stopped its handlers.
export class ConnectionsLifecycle implements OnApplicationShutdown {
  constructor(
    private readonly nc: NatsConnection,
    private readonly dataSource: DataSource,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    if (!this.nc.isClosed()) await this.nc.drain();
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}
