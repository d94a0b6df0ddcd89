import { randomUUID } from 'node:crypto';
import { CONSUMERS, STREAMS, subjects, type JobUpdateV1 } from '@vj/contracts';
import { JetStreamConsumers, type ConsumerSpec, type JetStreamContext } from '@vj/messaging';
import type { DataSource } from 'typeorm';
import type { NatsConnection } from 'nats';
import { DeliveryStore } from '../deliveries/delivery-store';
import { runningJob, webhookBody } from '../domain/delivery-fan-out';
import type { ProgressEndpoints } from './progress-endpoints';

// Progress is a live signal: one older than this when taken (a backlog after an outage) is dropped.
export const PROGRESS_FRESH_MS = 60_000;
// Updates come in bursts (every running job, each second): many asked at once, settled in order.
const PULL_BATCH = 100;
const PULL_EXPIRES_MS = 30_000;

export const JOB_UPDATES_CONSUMER: ConsumerSpec = {
  stream: STREAMS.jobUpdates,
  durable: CONSUMERS.webhooksJobUpdates,
  filterSubject: subjects.jobUpdateAll(),
  subjects: [subjects.jobUpdateAll()],
  ackWaitMs: 30_000,
  maxDeliver: 5,
  concurrency: 1,
  backoffMs: [1_000],
  maxProcessingMs: 30_000,
  advisoryDeadLetters: false,
  // A progress update that cannot be taken in five tries is stale: terminated, not kept.
  deadLetters: false,
  prefetch: PULL_BATCH,
  logEachMessage: false,
};

// job.progress deliveries (opt-in) from the workers' progress updates in VJ_JOB_UPDATES, at most one
// a second per job (the workers' own rate). A running job's object is { job_id, status: PROCESSING },
// so no read is needed; the figures go beside it as data.progress. A failed progress delivery is not
// retried (the dispatcher gives it up): a late progress would contradict the job's later events. The
// account's opted-in endpoints come from a short-lived cache (ProgressEndpoints, decision 0062).
export class JobProgressIntake {
  private readonly store: DeliveryStore;
  private consumers?: JetStreamConsumers;

  constructor(
    private readonly nc: NatsConnection,
    dataSource: DataSource,
    private readonly endpoints: ProgressEndpoints,
    private readonly onDue: () => void,
    private readonly log: (line: string) => void,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.store = new DeliveryStore(dataSource);
  }

  // On the one consumer runtime: an update not taken is tried again a second later, five times at most.
  async start(): Promise<void> {
    this.consumers = new JetStreamConsumers({
      connection: this.nc,
      consumers: [JOB_UPDATES_CONSUMER],
      handlers: {
        [subjects.jobUpdateAll()]: async (update: unknown, ctx: JetStreamContext) => {
          await this.take(update as JobUpdateV1, ctx.message.seq);
        },
      },
      deadLetterHandlers: {},
      pullExpiresMs: PULL_EXPIRES_MS,
      logger: { log: () => undefined, warn: this.log, error: this.log },
    });
    await this.consumers.start();
  }

  async stop(): Promise<void> {
    await this.consumers?.close();
  }

  async take(update: JobUpdateV1, streamSeq: number): Promise<number> {
    if (update.kind !== 'progress') return 0;
    if (this.now().getTime() - Date.parse(update.occurred_at) > PROGRESS_FRESH_MS) return 0;
    const { account_id, job_id } = update;
    const targets = await this.endpoints.of(account_id);
    if (targets.length === 0) return 0;
    const body = webhookBody('job.progress', update.occurred_at, runningJob(job_id), { stage: update.stage, progress: update.progress, attempt: update.attempt });
    await this.store.add(
      targets.map((endpoint_id) => ({ delivery_id: randomUUID(), endpoint_id, source_id: `${job_id}.progress.${streamSeq}`, event_type: 'job.progress' as const, job_id, body })),
      this.now(),
    );
    this.onDue();
    return targets.length;
  }
}
