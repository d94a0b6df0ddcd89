import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { subjects, type JobCancelledEventV1 } from '@vj/contracts';
import { decodeJson } from '@vj/messaging';
import type { NatsConnection, Subscription } from 'nats';
import { CancellationRegistry } from '../processing/cancellation-registry';
import { NATS_CONNECTION } from './nats-connection.token';

// A plain subscription, no queue group: every worker hears every cancel and stops the job if it runs it.
@Injectable()
export class CancelListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(CancelListener.name);
  private subscription?: Subscription;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly registry: CancellationRegistry,
  ) {}

  onApplicationBootstrap(): void {
    this.subscription = this.nc.subscribe(subjects.jobEvent('cancelled'), {
      callback: (error, msg) => {
        if (error) return this.logger.error(`cancel subscription: ${error.message}`);
        try {
          const event = decodeJson<JobCancelledEventV1>(msg.data);
          if (this.registry.cancel(event.job_id)) this.logger.log(`job ${event.job_id} cancelled: stopping it`);
        } catch (failure) {
          this.logger.warn(`ignoring an unreadable cancel event: ${String(failure)}`);
        }
      },
    });
  }

  onApplicationShutdown(): void {
    this.subscription?.unsubscribe();
  }
}
