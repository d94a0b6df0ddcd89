import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { JetStreamConsumers } from './jetstream-consumers';

// A service's consumers in its Nest application: they start pulling once every provider is ready,
// and stop first when it closes (onModuleDestroy comes before every beforeApplicationShutdown), so
// running handlers finish while the outbox relays and connections they use are still up.
export class JetStreamConsumersLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(readonly consumers: JetStreamConsumers) {}

  onApplicationBootstrap(): Promise<void> {
    return this.consumers.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.consumers.close();
  }
}
