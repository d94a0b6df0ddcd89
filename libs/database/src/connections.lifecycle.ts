import type { OnApplicationShutdown } from '@nestjs/common';
import type { DataSource } from 'typeorm';

// What a service's NATS connection offers here (structural: this library does not load the client).
export interface DrainableConnection {
  isClosed(): boolean;
  drain(): Promise<void>;
}

// Closes NATS and the database last: Nest runs shutdown hooks after the consumers and lifecycles
// stopped in beforeApplicationShutdown.
export class ConnectionsLifecycle implements OnApplicationShutdown {
  constructor(
    private readonly nc: DrainableConnection,
    private readonly dataSource: DataSource,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    if (!this.nc.isClosed()) await this.nc.drain();
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}
