import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import type { OutboxRelay } from './outbox-relay';

// Starts a service's relay with the app and stops it (after its running batch) before the connections close.
export class OutboxRelayLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(private readonly relay: OutboxRelay) {}

  onApplicationBootstrap(): void {
    this.relay.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.relay.stop();
  }
}
