import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { subjects, type JobEventKind } from '@vj/contracts';
import { decodeJson, NATS_CONNECTION } from '@vj/messaging';
import { incomingContext, runWithLogContext } from '@vj/observability';
import type { NatsConnection, Subscription } from 'nats';
import { CancellationRegistry, type EndedJobStatus } from '../processing/cancellation-registry';

// The job events that make a job final, whoever caused them: a client's cancel, the sweeper's timeout,
// the jobs service's dead-letter path, or another worker that ran the same job.
export const JOB_ENDING_EVENTS: Partial<Record<JobEventKind, EndedJobStatus>> = {
  cancelled: 'CANCELLED',
  failed: 'FAILED',
  completed: 'COMPLETED',
};

// Plain subscriptions, no queue group: every worker hears every final event and stops the job if it runs it.
@Injectable()
export class CancelListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(CancelListener.name);
  private readonly subscriptions: Subscription[] = [];

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly registry: CancellationRegistry,
  ) {}

  onApplicationBootstrap(): void {
    for (const [kind, status] of Object.entries(JOB_ENDING_EVENTS) as [JobEventKind, EndedJobStatus][]) {
      this.subscriptions.push(
        this.nc.subscribe(subjects.jobEvent(kind), {
          callback: (error, msg) => {
            if (error) return this.logger.error(`${kind} event subscription: ${error.message}`);
            // In the context the event carries: the stop is logged with the request that ended the job.
            runWithLogContext(incomingContext(msg.headers).log, () => this.onEvent(status, msg.data));
          },
        }),
      );
    }
  }

  private onEvent(status: EndedJobStatus, data: Uint8Array): void {
    try {
      const event = decodeJson<{ job_id: string }>(data);
      if (this.registry.ended(event.job_id, status)) this.logger.log(`job ${event.job_id} is ${status}: stopping it`);
    } catch (failure) {
      this.logger.warn(`ignoring an unreadable job event: ${String(failure)}`);
    }
  }

  onApplicationShutdown(): void {
    for (const subscription of this.subscriptions) subscription.unsubscribe();
  }
}
