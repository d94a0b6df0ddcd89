import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { AllowList, resolveWithSystemDns } from '@vj/egress';
import { parseRetrySchedule } from '@vj/webhooks';
import type { DataSource } from 'typeorm';
import type { WebhooksConfig } from '../webhooks.env';
import { DeliveryDispatcher } from './delivery-dispatcher';
import { DeliveryStore } from './delivery-store';
import { DispatchLoop } from './dispatch-loop';

// A claim outlives the sender's time limit by this much, so a live instance never loses its claim.
const LEASE_MARGIN_MS = 10_000;

// Deliveries out: each instance claims due rows from start; nudge() says some are due now. At shutdown
// the loop stops and the sends in flight record their attempts before the database closes.
export class Deliveries implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly dispatcher: DeliveryDispatcher;
  private readonly loop: DispatchLoop;

  constructor(dataSource: DataSource, config: WebhooksConfig, reportError: (what: string) => (error: unknown) => void) {
    this.dispatcher = new DeliveryDispatcher(
      new DeliveryStore(dataSource),
      {
        schedule: parseRetrySchedule(config.WEBHOOK_RETRY_SCHEDULE),
        limits: { timeoutMs: config.WEBHOOK_TIMEOUT_MS, maxResponseBytes: config.WEBHOOK_MAX_RESPONSE_BYTES },
        policy: { allowList: AllowList.parse(config.WEBHOOK_ALLOW_HOSTS, 'WEBHOOK_ALLOW_HOSTS'), resolve: resolveWithSystemDns },
        batch: config.WEBHOOK_DISPATCH_BATCH,
        leaseMs: config.WEBHOOK_TIMEOUT_MS + LEASE_MARGIN_MS,
      },
      undefined,
      // A finished send makes room: claim the next due one at once.
      { onSettled: () => this.loop.nudge(), onError: reportError('recording an attempt failed (the delivery is sent again once its claim ends)') },
    );
    this.loop = new DispatchLoop(() => this.dispatcher.dispatchDue(), {
      batch: config.WEBHOOK_DISPATCH_BATCH,
      idleMs: config.WEBHOOK_DISPATCH_IDLE_MS,
      onError: reportError('dispatch round failed'),
    });
  }

  nudge(): void {
    this.loop.nudge();
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.loop.stop();
    await this.dispatcher.settled();
  }
}
