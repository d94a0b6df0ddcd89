import { JOB_EVENT_KINDS, STREAMS, subjects, type ConsumerName, type JobEventKind, type JobEventPayloads } from '@vj/contracts';
import { decodeJson, keepAlive, keepDeadLetter, openConsumer, PullLoop, settleUndecodable, type ConsumerSpec } from '@vj/messaging';
import type { JsMsg, NatsConnection } from 'nats';
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
  log?: (line: string) => void;
}

const DEFAULT_BACKOFF_MS = [1_000, 5_000, 30_000];
const PULL_BATCH = 100;
const PULL_EXPIRES_MS = 30_000;
const PAUSE_STEP_MS = 1_000;
// An event in hand for a day is a hung handler: JetStream may then give it to another instance.
const KEEP_ALIVE_LIMIT_MS = 24 * 3_600_000;

// A typed, durable, explicitly acknowledged reader of the job event log for internal services. Events
// are handled one at a time, in stream order (a failing handler is retried in place); each is
// deduplicated by its event_id before the handler runs, and acknowledged only after it returns. A
// payload that is not JSON is kept in VJ_DEAD_LETTERS and terminated (never retried); a kind this
// version does not know is acknowledged and skipped, so new kinds never block it.
export class JobEventsConsumer {
  private stopping = false;
  private pull?: PullLoop;
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
      maxProcessingMs: this.options.ackWaitMs ?? 30_000,
    };
  }

  // Creates the durable consumer when missing (from the oldest event kept), then starts reading.
  async start(): Promise<void> {
    // The consumer's maxAckPending of 1 keeps one event out at a time whatever the pull asks for, so
    // asking for many spares the pull request that followed every event: the library asks for more each
    // time a quarter of what it asked for has come, one request per 25 events.
    const open = () => openConsumer(this.nc, this.spec);
    const consumer = await open();
    const log = (line: string) => this.options.log?.(line);
    // One handler at a time: stream order.
    this.pull = new PullLoop(open, { durable: this.options.durable, concurrency: 1, expiresMs: PULL_EXPIRES_MS, prefetch: PULL_BATCH }, (msg) => this.settle(msg), { warn: log, error: log });
    this.pull.start(consumer);
  }

  // Stops pulling and waits for the event in hand; what was not acknowledged comes again next start.
  async stop(): Promise<void> {
    this.stopping = true;
    await this.pull?.close();
  }

  // Waits in steps of a second at most, so a stop is not held up.
  private async pause(ms: number): Promise<void> {
    for (let waited = 0; waited < ms && !this.stopping; waited += PAUSE_STEP_MS) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(PAUSE_STEP_MS, ms - waited)));
    }
  }

  private async settle(msg: JsMsg): Promise<void> {
    const kind = msg.subject.slice(subjects.jobEvent('' as JobEventKind).length) as JobEventKind;
    if (!this.kinds.has(kind)) return msg.ack();
    let payload: { event_id?: unknown };
    try {
      payload = decodeJson(msg.data);
    } catch (failure) {
      // Kept for an operator (`cli dead-letters`), then terminated, as every consumer of ours does.
      const logger = { error: (line: string) => this.options.log?.(line) };
      return settleUndecodable({ msg, spec: this.spec, failure, keep: (letter) => keepDeadLetter(this.nc.jetstream(), letter), logger });
    }
    const eventId = typeof payload.event_id === 'string' ? payload.event_id : msg.headers?.get('Nats-Msg-Id') || String(msg.seq);
    const event = { kind, payload } as JobEvent;
    const { maxDeliver, backoffMs, ackWaitMs } = this.spec;
    // working() while the event is in hand, retries included, so it is not delivered elsewhere meanwhile.
    const alive = keepAlive(msg, ackWaitMs, KEEP_ALIVE_LIMIT_MS);
    try {
      // Retried in place, so the events behind it wait and stream order holds.
      for (let attempt = msg.info.redeliveryCount; ; attempt++) {
        try {
          await this.deduplicator.once(eventId, () => this.options.handle(event, { eventId, streamSeq: msg.seq, deliveries: attempt }));
          return msg.ack();
        } catch (error) {
          if (maxDeliver > 0 && attempt >= maxDeliver) {
            this.options.log?.(`${msg.subject} #${msg.seq} failed ${attempt} times, left in the stream: ${String(error)}`);
            return msg.term();
          }
          const delay = backoffMs[Math.min(attempt - 1, backoffMs.length - 1)] ?? 1_000;
          this.options.log?.(`${msg.subject} #${msg.seq} attempt ${attempt} failed, again in ${delay} ms: ${String(error)}`);
          await this.pause(delay);
          // Stopping: the event comes again at the next start, to this or another instance.
          if (this.stopping) return msg.nak();
        }
      }
    } finally {
      alive.stop();
    }
  }
}
