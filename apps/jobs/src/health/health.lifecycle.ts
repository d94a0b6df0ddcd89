import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { answersQueries } from '@vj/database';
import { serveHealth } from '@vj/messaging';
import type { NatsConnection, Subscription } from 'nats';
import type { DataSource } from 'typeorm';

// Answers the gateway's readiness pings: ready while the database answers and NATS is connected.
export class HealthLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private subscription: Subscription | undefined;

  constructor(
    private readonly nc: NatsConnection,
    private readonly dataSource: DataSource,
  ) {}

  onApplicationBootstrap(): void {
    this.subscription = serveHealth(this.nc, 'jobs', async () => !this.nc.isClosed() && (await answersQueries(this.dataSource)));
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.subscription && !this.subscription.isClosed()) await this.subscription.drain();
  }
}
