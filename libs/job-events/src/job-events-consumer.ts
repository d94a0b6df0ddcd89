import { JOB_EVENT_KINDS, STREAMS, subjects, type ConsumerName, type JobEventKind, type JobEventPayloads } from '@vj/contracts';
import { JetStreamConsumers, type ConsumerSpec, type HandlerTable, type JetStreamContext } from '@vj/messaging';
import type { NatsConnection } from 'nats';
import { InMemoryDeduplicator, type EventDeduplicator } from './event-deduplicator';

// One job event as a handler gets it: its kind and its payload (JobEventPayloads in libs/contracts).
export type JobEvent = { [K in JobEventKind]: { kind: K; payload: JobEventPayloads[K] } }[JobEventKind];

export interface JobEventContext {
  // The event's id (its event_id): a handler that writes to its own store records it in the same
  // transaction, for effects exactly once across restarts.
  eventId: string;
  // The event's place in VJ_JOB_EVENTS, and the attempt at handling it (1 the first time).
  streamSeq: number;
  deliveries: number;
}

export interface JobEventsConsumerOptions {
  // The consumer's durable name, declared in CONSUMERS (libs/contracts) with its NATS user.
  durable: ConsumerName;
  // The kinds handled; the others are acknowledged unseen. All by default.
  kinds?: readonly JobEventKind[];
  handle(event: JobEvent, context: JobEventContext): Promise<void>;
  // Skips an event id already handled; by default the last 100,000 ids of this process.
  deduplicator?: EventDeduplicator;
  // A handler that throws runs again after these delays (the last repeats), holding the events behind
  // it, at most maxDeliver times in all (-1: until it succeeds, for a consumer that must not skip an
  // event through an outage); then the event is terminated and logged, and stays in the stream.
  backoffMs?: readonly number[];
  maxDeliver?: number;
  ackWaitMs?: number;
  // Where its warnings and errors go (retries, events left in the stream); Nest's logger by default.
  log?: (line: string) => void;
}

const DEFAULT_BACKOFF_MS = [1_000, 5_000, 30_000];
// The consumer's maxAckPending of 1 keeps one event out at a time whatever the pull asks for, so
// asking for many spares the pull request that followed every event: the library asks for more each
// time a quarter of what it asked for has come, one request per 25 events.
const PULL_BATCH = 100;
const PULL_EXPIRES_MS = 30_000;
// An event in hand for a day is a hung handler: JetStream may then give it to another instance.
const KEEP_ALIVE_LIMIT_MS = 24 * 3_600_000;

// A typed, durable, explicitly acknowledged reader of the job event log for internal services, on the
// one consumer runtime (JetStreamConsumers, ordered). Events are handled one at a time, in stream
// order (a failing handler is retried in place); each is deduplicated by its event_id before the
// handler runs, and acknowledged only after it returns. A payload that is not JSON is kept in
// VJ_DEAD_LETTERS and terminated (never retried); a kind this version does not know is acknowledged
// and skipped, so new kinds never block it.
export class JobEventsConsumer {
  private consumers?: JetStreamConsumers;
  private readonly kinds: ReadonlySet<string>;
  private readonly deduplicator: EventDeduplicator;

  constructor(
    private readonly nc: NatsConnection,
    private readonly options: JobEventsConsumerOptions,
  ) {
    this.kinds = new Set(options.kinds ?? JOB_EVENT_KINDS);
    this.deduplicator = options.deduplicator ?? new InMemoryDeduplicator();
  }

  get spec(): ConsumerSpec {
    return {
      stream: STREAMS.jobEvents,
      durable: this.options.durable,
      filterSubject: subjects.jobEventAll(),
      subjects: JOB_EVENT_KINDS.map((kind) => subjects.jobEvent(kind)),
      ackWaitMs: this.options.ackWaitMs ?? 30_000,
      maxDeliver: this.options.maxDeliver ?? 10,
      concurrency: 1,
      // One event out at a time across every instance of the service: stream order holds.
      maxAckPending: 1,
      backoffMs: [...(this.options.backoffMs ?? DEFAULT_BACKOFF_MS)],
      maxProcessingMs: KEEP_ALIVE_LIMIT_MS,
      ordered: true,
      deadLetters: false,
      skipUnknownSubjects: true,
      prefetch: PULL_BATCH,
    };
  }

  // Creates the durable consumer when missing (from the oldest event kept), then starts reading.
  async start(): Promise<void> {
    const { log } = this.options;
    this.consumers = new JetStreamConsumers({
      connection: this.nc,
      consumers: [this.spec],
      handlers: this.handlers(),
      deadLetterHandlers: {},
      pullExpiresMs: PULL_EXPIRES_MS,
      ...(log && { logger: { log: () => undefined, warn: log, error: log } }),
    });
    await this.consumers.start();
  }

  // Stops pulling and waits for the event in hand; what was not acknowledged comes again next start.
  async stop(): Promise<void> {
    await this.consumers?.close();
  }

  private handlers(): HandlerTable {
    return Object.fromEntries(JOB_EVENT_KINDS.map((kind) => [subjects.jobEvent(kind), (payload: unknown, ctx: JetStreamContext) => this.take(kind, payload, ctx)]));
  }

  private async take(kind: JobEventKind, payload: unknown, ctx: JetStreamContext): Promise<void> {
    if (!this.kinds.has(kind)) return;
    const given = (payload as { event_id?: unknown } | null)?.event_id;
    const eventId = typeof given === 'string' ? given : ctx.message.headers?.get('Nats-Msg-Id') || String(ctx.message.seq);
    const event = { kind, payload } as JobEvent;
    await this.deduplicator.once(eventId, () => this.options.handle(event, { eventId, streamSeq: ctx.message.seq, deliveries: ctx.attempt }));
  }
}
