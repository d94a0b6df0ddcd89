import { Logger, type LoggerService } from '@nestjs/common';
import type { ConsumerName } from '@vj/contracts';
import type { JetStreamManager, JsMsg, NatsConnection, Subscription } from 'nats';
import { setTimeout as sleep } from 'node:timers/promises';
import { decodeJson } from '../json-codec';
import type { ConsumerSpec } from './consumer-spec';
import { deadLetterPattern, type DeadLetter } from './dead-letter';
import { checkHandlers, type DeadLetterSource } from './handler-check';
import { JetStreamContext } from './jetstream-context';
import { keepAlive } from './keep-alive';
import { keepDeadLetter } from './keep-dead-letter';
import { listenForMaxDeliveries } from './max-deliveries-listener';
import { openConsumer } from './open-consumer';
import { PullLoop } from './pull-loop';
import { HandBack } from './hand-back';
import { PermanentMessageError } from './permanent-message-error';
import { settleMessage, settleUndecodable } from './settle-message';
import { decideSettlement } from './settlement';
import { logContextOf, markActiveSpanFailed, observeJetStreamHandler, runInMessageContext, runWithLogContext, SpanKind } from '@vj/observability';

// What each subject's messages are handled by. A handler that throws has its message retried or
// dead-lettered (settlement.ts); PermanentMessageError ends it at once.
export type MessageHandler = (payload: unknown, ctx: JetStreamContext) => Promise<void> | void;
export type HandlerTable = Readonly<Record<string, MessageHandler>>;
// What each consumer's dead letters (by durable name) are handled by, once kept.
export type DeadLetterHandlers = Readonly<Partial<Record<ConsumerName, (letter: DeadLetter) => Promise<void> | void>>>;

export interface JetStreamConsumersOptions {
  connection: NatsConnection;
  consumers: ConsumerSpec[];
  // One handler for every subject of every consumer, and one for each consumer's (and each watched
  // consumer's) dead letters; no other.
  handlers: HandlerTable;
  deadLetterHandlers: DeadLetterHandlers;
  // Consumers owned by another service whose MAX_DELIVERIES dead letters this service handles.
  deadLetterWatches?: DeadLetterSource[];
  // How long close() waits for running handlers.
  closeTimeoutMs?: number;
  // A pull request waits this long for messages before the next one is sent.
  pullExpiresMs?: number;
  // Errors that mean a dependency of the service is away (its database): the handler runs again in place.
  isOutage?: (error: unknown) => boolean;
  // Where its lines go; Nest's logger, in the JetStreamConsumers context, by default.
  logger?: ConsumerLogger;
}

export type ConsumerLogger = Pick<LoggerService, 'log' | 'warn' | 'error'>;

// Between tries of a handler whose database is out of reach.
const OUTAGE_WAITS_MS = [500, 1_000, 2_000, 5_000];

// Every JetStream durable pull consumer of a service, read the same way: each message dispatched by
// subject to its handler in the table, at most `concurrency` handlers per consumer running
// (pull-loop.ts), each message kept alive while its handler runs (keep-alive.ts) and settled
// explicitly (settle-message.ts); an ordered consumer's failing handler runs again in place
// (ConsumerSpec.ordered). Plain code: a service's lifecycle starts and closes it.
export class JetStreamConsumers {
  private readonly logger: ConsumerLogger;
  private stopping = false;
  // Aborted by close(): wakes an ordered consumer's handler waiting to run again.
  private readonly closing = new AbortController();
  private readonly pulls: { loop: PullLoop; done: Promise<void> }[] = [];
  private readonly subscriptions: Subscription[] = [];

  constructor(private readonly options: JetStreamConsumersOptions) {
    this.logger = options.logger ?? new Logger(JetStreamConsumers.name);
  }

  // Ensures each consumer and starts pulling; refuses to start when the table does not match them.
  async start(): Promise<void> {
    const { connection: nc, consumers, deadLetterWatches = [], handlers, deadLetterHandlers } = this.options;
    const patterns = [...Object.keys(handlers), ...(Object.keys(deadLetterHandlers) as ConsumerName[]).map(deadLetterPattern)];
    const problems = checkHandlers(consumers, deadLetterWatches, (pattern) => (patterns.includes(pattern) ? 1 : 0), patterns);
    if (problems.length) throw new Error(`JetStreamConsumers refuses to start:\n  ${problems.join('\n  ')}`);
    const jsm = await nc.jetstreamManager();
    for (const spec of consumers) {
      const open = () => openConsumer(nc, spec);
      const consumer = await open();
      if ((spec.advisoryDeadLetters ?? true) && (spec.deadLetters ?? true)) this.watchDeadLetters(jsm, spec);
      const pull = { durable: spec.durable, concurrency: spec.concurrency, expiresMs: this.options.pullExpiresMs ?? 5_000, ...(spec.prefetch && { prefetch: spec.prefetch }) };
      const loop = new PullLoop(open, pull, (msg) => this.process(spec, msg), this.logger);
      this.pulls.push({ loop, done: loop.run(consumer) });
    }
    for (const watch of deadLetterWatches) this.watchDeadLetters(jsm, watch);
  }

  private watchDeadLetters(jsm: JetStreamManager, source: DeadLetterSource): void {
    const handle = (deadLetter: DeadLetter) => runWithLogContext(logContextOf(deadLetter.payload), () => this.handleDeadLetter(source.durable, deadLetter));
    this.subscriptions.push(listenForMaxDeliveries(this.options.connection, jsm, source, handle, this.logger));
  }

  // The handler and the settlement run in the context the message carries (request, job, account, trace
  // in NATS headers, JetStreamPublisher), so their log lines and spans carry it too.
  private process(spec: ConsumerSpec, msg: JsMsg): Promise<void> {
    const span = {
      name: `${msg.subject} process`,
      kind: SpanKind.CONSUMER,
      attributes: { 'messaging.system': 'nats', 'messaging.destination.name': msg.subject, 'messaging.consumer.group.name': spec.durable },
    };
    return runInMessageContext(msg.headers, span, () => this.handle(spec, msg));
  }

  private async handle(spec: ConsumerSpec, msg: JsMsg): Promise<void> {
    const declared = declaredSubject(spec, msg.subject);
    if (spec.skipUnknownSubjects && declared === undefined) return msg.ack();
    const started = process.hrtime.bigint();
    const alive = keepAlive(msg, spec.ackWaitMs, spec.maxProcessingMs);
    const ctx = new JetStreamContext(msg, spec.maxDeliver, alive.signal);
    let payload: unknown;
    let failure: unknown;
    try {
      payload = decodeJson(msg.data);
      if (declared === undefined) throw new Error(`no handler for subject ${msg.subject}`);
      await (spec.ordered ? this.invokeInOrder(spec, declared, payload, ctx, alive.signal) : this.invokeThroughOutages(declared, payload, ctx, alive.signal));
    } catch (error) {
      failure = error ?? new Error('handler failed');
      markActiveSpanFailed(failure);
    } finally {
      alive.stop();
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    // By the declared subject: a wildcard's subjects (one per job) are one series.
    observeJetStreamHandler(spec.durable, declared ?? msg.subject, failure === undefined ? 'ok' : 'error', seconds);
    // One line per message handled: with the job_id of the context, a job's path through the services.
    if (failure === undefined && (spec.logEachMessage ?? true)) this.logger.log(`${spec.durable} handled ${msg.subject} (delivery ${ctx.attempt}) in ${Math.round(seconds * 1000)} ms`);
    if (payload === undefined && failure !== undefined) return settleUndecodable({ msg, spec, failure, keep: (letter) => keepDeadLetter(this.options.connection.jetstream(), letter), logger: this.logger });
    const settlement = decideSettlement(failure, { attempt: ctx.attempt, maxDeliver: spec.maxDeliver, backoffMs: spec.backoffMs });
    if (settlement.kind === 'dead-letter' && spec.deadLetters === false) {
      this.logger.error(`${msg.subject} #${msg.seq} failed ${ctx.attempt} times, left in the stream: ${settlement.reason}`);
      return msg.term();
    }
    await settleMessage(settlement, { msg, spec, attempt: ctx.attempt, payload, failure, deadLetter: (deadLetter) => this.keepAndHandle(deadLetter), logger: this.logger });
  }

  // An ordered consumer's handler runs again in place after each failure, so the messages behind it
  // wait and stream order holds; its attempts count as deliveries (ctx.attempt). It ends with the
  // handler's success, a permanent error, its last attempt (settled as the spec says), or a stop, which
  // hands the message back for the next start.
  private async invokeInOrder(spec: ConsumerSpec, declared: string, payload: unknown, ctx: JetStreamContext, alive: AbortSignal): Promise<void> {
    for (;;) {
      try {
        return await this.invokeThroughOutages(declared, payload, ctx, alive);
      } catch (error) {
        if (error instanceof PermanentMessageError || error instanceof HandBack || (spec.maxDeliver > 0 && ctx.attempt >= spec.maxDeliver)) throw error;
        const delayMs = spec.backoffMs[Math.min(ctx.attempt - 1, spec.backoffMs.length - 1)] ?? 1_000;
        this.logger.warn(`${ctx.subject} #${ctx.message.seq} attempt ${ctx.attempt} failed, again in ${delayMs} ms: ${String(error)}`);
        const waited = await sleep(delayMs, true, { signal: AbortSignal.any([alive, this.closing.signal]) }).catch(() => false);
        if (!waited || this.stopping) throw new HandBack('stopping: the message comes again at the next start');
        ctx.retryInPlace();
      }
    }
  }

  private async keepAndHandle(deadLetter: DeadLetter): Promise<void> {
    await keepDeadLetter(this.options.connection.jetstream(), deadLetter);
    await this.handleDeadLetter(deadLetter.durable, deadLetter);
  }

  // A handler that failed because its database was out of reach (options.isOutage) runs again in place,
  // its message kept alive, until the database answers or the consumer's maxProcessingMs: settled as a
  // failure, each try would spend one of the message's deliveries, and a minute of PostgreSQL restarting
  // dead-lettered the workers' reports (their jobs then failed as timed out). Handlers are idempotent:
  // they are redelivered anyway.
  private async invokeThroughOutages(subject: string, payload: unknown, ctx: JetStreamContext, alive: AbortSignal): Promise<void> {
    for (let tries = 0; ; tries++) {
      try {
        return await this.invoke(subject, payload, ctx);
      } catch (error) {
        if (!this.options.isOutage?.(error) || this.stopping || alive.aborted) throw error;
        if (!tries) this.logger.warn(`${subject}: the database is out of reach (${String(error)}); trying again in place`);
        const waited = await sleep(OUTAGE_WAITS_MS[Math.min(tries, OUTAGE_WAITS_MS.length - 1)], true, { signal: alive }).catch(() => false);
        if (!waited || this.stopping) throw error;
      }
    }
  }

  private async invoke(subject: string, payload: unknown, ctx: JetStreamContext): Promise<void> {
    const handler = Object.hasOwn(this.options.handlers, subject) ? this.options.handlers[subject] : undefined;
    if (!handler) throw new Error(`no handler for ${subject}`);
    await handler(payload, ctx);
  }

  private async handleDeadLetter(durable: ConsumerName, deadLetter: DeadLetter): Promise<void> {
    const handler = this.options.deadLetterHandlers[durable];
    if (!handler) throw new Error(`no handler for ${deadLetterPattern(durable)}`);
    await handler(deadLetter);
  }

  // Stop pulling, let running handlers finish (bounded), then drain the dead-letter subscriptions.
  async close(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.closing.abort();
    await Promise.all(this.pulls.map(({ loop }) => loop.stop()));
    const running = this.pulls.flatMap(({ loop }) => [...loop.running]);
    if ((await withTimeout(Promise.all(running), this.options.closeTimeoutMs ?? 30_000)) === 'timeout') {
      const still = this.pulls.reduce((count, { loop }) => count + loop.running.size, 0);
      this.logger.warn(`closing with ${still} handlers still running; their messages will be redelivered`);
    }
    await withTimeout(Promise.all(this.pulls.map(({ done }) => done)), 1_000);
    await Promise.all(this.subscriptions.map((sub) => (sub.isClosed() ? undefined : sub.drain())));
  }

}

// Resolves 'timeout' if `work` takes longer than `ms`, without leaving a timer behind either way.
async function withTimeout(work: Promise<unknown>, ms: number): Promise<'done' | 'timeout'> {
  const abort = new AbortController();
  const timer = sleep(ms, 'timeout' as const, { signal: abort.signal }).catch(() => 'done' as const);
  try {
    return await Promise.race([work.then(() => 'done' as const), timer]);
  } finally {
    abort.abort();
  }
}

// The declared subject a message's subject falls under: itself, or a pattern with NATS wildcards.
function declaredSubject(spec: ConsumerSpec, subject: string): string | undefined {
  return spec.subjects.find((pattern) => pattern === subject || matchesWildcards(pattern, subject));
}

function matchesWildcards(pattern: string, subject: string): boolean {
  const wanted = pattern.split('.');
  const given = subject.split('.');
  for (const [index, token] of wanted.entries()) {
    if (token === '>') return given.length > index;
    if (index >= given.length || (token !== '*' && token !== given[index])) return false;
  }
  return wanted.length === given.length;
}
