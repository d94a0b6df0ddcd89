import { randomUUID } from 'node:crypto';
import { CONSUMERS, STREAMS, subjects, type JobUpdateV1 } from '@vj/contracts';
import { decodeJson, ensureConsumer, type ConsumerSpec } from '@vj/messaging';
import { IsNull, type DataSource } from 'typeorm';
import type { JsMsg, NatsConnection } from 'nats';
import { WebhookEndpointEntity } from '../database/webhook-endpoint.entity';
import { DeliveryStore } from '../deliveries/delivery-store';
import { endpointsFor, runningJob, webhookBody } from '../domain/delivery-fan-out';

// Progress is a live signal: one older than this when taken (a backlog after an outage) is dropped.
export const PROGRESS_FRESH_MS = 60_000;
const PULL_EXPIRES_MS = 5_000;

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
};

// job.progress deliveries (opt-in) from the workers' progress updates in VJ_JOB_UPDATES, at most one
// a second per job (the workers' own rate). A running job's object is { job_id, status: PROCESSING },
// so no read is needed; the figures go beside it as data.progress. A failed progress delivery is not
// retried (the dispatcher gives it up): a late progress would contradict the job's later events.
export class JobProgressIntake {
  private readonly store: DeliveryStore;
  private stopping = false;
  private loop?: Promise<void>;

  constructor(
    private readonly nc: NatsConnection,
    private readonly dataSource: DataSource,
    private readonly onDue: () => void,
    private readonly log: (line: string) => void,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.store = new DeliveryStore(dataSource);
  }

  async start(): Promise<void> {
    await ensureConsumer(await this.nc.jetstreamManager(), JOB_UPDATES_CONSUMER);
    const consumer = await this.nc.jetstream().consumers.get(STREAMS.jobUpdates, CONSUMERS.webhooksJobUpdates);
    this.loop = (async () => {
      while (!this.stopping) {
        try {
          for await (const msg of await consumer.fetch({ max_messages: 20, expires: PULL_EXPIRES_MS })) {
            if (this.stopping) msg.nak();
            else await this.settle(msg);
          }
        } catch (error) {
          if (this.stopping) break;
          this.log(`pull from ${CONSUMERS.webhooksJobUpdates} failed, retrying: ${String(error)}`);
          await new Promise((resolve) => setTimeout(resolve, 1_000));
        }
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.loop;
  }

  private async settle(msg: JsMsg): Promise<void> {
    try {
      await this.take(decodeJson<JobUpdateV1>(msg.data), msg.seq);
      msg.ack();
    } catch (error) {
      this.log(`${msg.subject} #${msg.seq} not taken, again later: ${String(error)}`);
      msg.nak(1_000);
    }
  }

  async take(update: JobUpdateV1, streamSeq: number): Promise<number> {
    if (update.kind !== 'progress') return 0;
    if (this.now().getTime() - Date.parse(update.occurred_at) > PROGRESS_FRESH_MS) return 0;
    const { account_id, job_id } = update;
    // A job's own endpoint (a create's webhook_url) takes the default events, never progress.
    const candidates = await this.dataSource.manager.findBy(WebhookEndpointEntity, { account_id, job_id: IsNull(), deleted_at: IsNull(), disabled_at: IsNull() });
    const targets = endpointsFor('job.progress', { account_id, job_id }, candidates);
    if (targets.length === 0) return 0;
    const body = webhookBody('job.progress', update.occurred_at, runningJob(job_id), { stage: update.stage, progress: update.progress, attempt: update.attempt });
    await this.store.add(
      targets.map((endpoint) => ({ delivery_id: randomUUID(), endpoint_id: endpoint.endpoint_id, source_id: `${job_id}.progress.${streamSeq}`, event_type: 'job.progress' as const, job_id, body })),
      this.now(),
    );
    this.onDue();
    return targets.length;
  }
}
