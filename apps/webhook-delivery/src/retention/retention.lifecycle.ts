import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import type { WebhookRetention } from './webhook-retention';

const RETENTION_SWEEP_MS = 3_600_000;

// Sweeps old deliveries once an hour while the service runs.
export class RetentionLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private sweeping: NodeJS.Timeout | undefined;

  constructor(
    private readonly retention: WebhookRetention,
    private readonly onError: (error: unknown) => void,
  ) {}

  onApplicationBootstrap(): void {
    this.sweeping = setInterval(() => void this.retention.sweep(new Date()).catch(this.onError), RETENTION_SWEEP_MS);
  }

  beforeApplicationShutdown(): void {
    clearInterval(this.sweeping);
  }
}
