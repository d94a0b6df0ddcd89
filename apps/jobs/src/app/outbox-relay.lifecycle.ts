import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import type { OutboxRelay } from '../outbox/outbox-relay';

export class OutboxRelayLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(private readonly relay: OutboxRelay) {}

  onApplicationBootstrap(): void {
    this.relay.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.relay.stop();
  }
}
