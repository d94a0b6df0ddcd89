import { Logger } from '@nestjs/common';
import { Server, type CustomTransportStrategy, type MessageHandler } from '@nestjs/microservices';
import { lastValueFrom } from 'rxjs';
import type { Consumer, ConsumerMessages, JetStreamManager, JsMsg, NatsConnection, Subscription } from 'nats';
import { setTimeout as sleep } from 'node:timers/promises';
import { decodeJson } from '../json-codec';
import type { ConsumerSpec } from './consumer-spec';
import { deadLetterPattern, type DeadLetter } from './dead-letter';
import { ensureConsumer } from './ensure-consumer';
import { checkHandlers, type DeadLetterSource } from './handler-check';
import { JetStreamContext } from './jetstream-context';
import { keepAlive } from './keep-alive';
import { keepDeadLetter } from './keep-dead-letter';
import { listenForMaxDeliveries } from './max-deliveries-listener';
import { decideSettlement } from './settlement';
import { logContextOf, markActiveSpanFailed, observeJetStreamHandler, runInMessageContext, runWithLogContext, SpanKind } from '@vj/observability';

export interface JetStreamServerOptions {
  connection: NatsConnection;
  consumers: ConsumerSpec[];
  // Consumers owned by another service whose MAX_DELIVERIES dead letters this service handles.
  deadLetterWatches?: DeadLetterSource[];
  // How long close() waits for running handlers.
  closeTimeoutMs?: number;
  // A pull request waits this long for messages before the next one is sent.
  pullExpiresMs?: number;
}

type HandlerWithNext = MessageHandler & { next?: HandlerWithNext };

// Nest transport over JetStream durable pull consumers: dispatches by subject to @EventPattern handlers,
// keeps at most `concurrency` handlers per consumer running and settles every message explicitly.
export class JetStreamServer extends Server implements CustomTransportStrategy {
  protected override readonly logger = new Logger(JetStreamServer.name);
  private stopping = false;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly batches = new Set<ConsumerMessages>();
  private readonly loops: Promise<void>[] = [];
  private readonly subscriptions: Subscription[] = [];

  constructor(private readonly options: JetStreamServerOptions) {
    super();
  }

  async listen(callback: (error?: unknown) => void): Promise<void> {
    try {
      await this.start();
      callback();
    } catch (error) {
      callback(error);
    }
  }

  private async start(): Promise<void> {
    const { connection: nc, consumers, deadLetterWatches = [] } = this.options;
    const problems = checkHandlers(consumers, deadLetterWatches, (p) => this.handlerCount(p), [...this.messageHandlers.keys()]);
    if (problems.length) throw new Error(`JetStreamServer refuses to start:\n  ${problems.join('\n  ')}`);
    const jsm = await nc.jetstreamManager();
    const js = nc.jetstream();
    for (const spec of consumers) {
      await ensureConsumer(jsm, spec);
      const consumer = await js.consumers.get(spec.stream, spec.durable);
      if (spec.advisoryDeadLetters ?? true) this.watchDeadLetters(jsm, spec);
      this.loops.push(this.pull(spec, consumer));
    }
    for (const watch of deadLetterWatches) this.watchDeadLetters(jsm, watch);
  }

  private handlerCount(pattern: string): number {
    let count = 0;
    for (let handler = this.messageHandlers.get(pattern) as HandlerWithNext | undefined; handler; handler = handler.next) count++;
    return count;
  }

  private watchDeadLetters(jsm: JetStreamManager, source: DeadLetterSource): void {
    const handle = (deadLetter: DeadLetter) => runWithLogContext(logContextOf(deadLetter.payload), () => this.invoke(deadLetterPattern(source.durable), deadLetter));
    this.subscriptions.push(listenForMaxDeliveries(this.options.connection, jsm, source, handle, this.logger));
  }

  // Pulls only as many messages as there are free handler slots, so nothing waits unprocessed in memory
  // while its ack wait runs out.
  private async pull(spec: ConsumerSpec, consumer: Consumer): Promise<void> {
    const running = new Set<Promise<void>>();
    while (!this.stopping) {
      if (running.size >= spec.concurrency) {
        await Promise.race(running);
        continue;
      }
      try {
        const batch = await consumer.fetch({ max_messages: spec.concurrency - running.size, expires: this.options.pullExpiresMs ?? 5_000 });
        this.batches.add(batch);
        for await (const msg of batch) {
          if (this.stopping) {
            msg.nak();
            continue;
          }
          const task = this.process(spec, msg)
            .catch((error: unknown) => this.logger.error(`settling ${msg.subject} failed: ${String(error)}`))
            .finally(() => {
              running.delete(task);
              this.inFlight.delete(task);
            });
          running.add(task);
          this.inFlight.add(task);
        }
        this.batches.delete(batch);
      } catch (error) {
        if (this.stopping) break;
        this.logger.warn(`pull from ${spec.durable} failed, retrying: ${String(error)}`);
        await sleep(1_000);
      }
    }
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
    const started = process.hrtime.bigint();
    const alive = keepAlive(msg, spec.ackWaitMs, spec.maxProcessingMs);
    const ctx = new JetStreamContext([msg, spec.maxDeliver, alive.signal]);
    let payload: unknown;
    let failure: unknown;
    try {
      payload = decodeJson(msg.data);
      if (!spec.subjects.includes(msg.subject)) throw new Error(`no handler for subject ${msg.subject}`);
      await this.invoke(msg.subject, payload, ctx);
    } catch (error) {
      failure = error ?? new Error('handler failed');
      markActiveSpanFailed(failure);
    } finally {
      alive.stop();
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    observeJetStreamHandler(spec.durable, msg.subject, failure === undefined ? 'ok' : 'error', seconds);
    // One line per message handled: with the job_id of the context, a job's path through the services.
    if (failure === undefined) this.logger.log(`${spec.durable} handled ${msg.subject} (delivery ${ctx.attempt}) in ${Math.round(seconds * 1000)} ms`);
    if (payload === undefined && failure !== undefined) {
      this.logger.error(`terminating undecodable message on ${msg.subject}: ${String(failure)}`);
      return msg.term();
    }
    await this.settle(spec, msg, ctx, payload, failure);
  }

  private async settle(spec: ConsumerSpec, msg: JsMsg, ctx: JetStreamContext, payload: unknown, failure: unknown) {
    const settlement = decideSettlement(failure, { attempt: ctx.attempt, maxDeliver: spec.maxDeliver, backoffMs: spec.backoffMs });
    switch (settlement.kind) {
      case 'ack':
        return msg.ack();
      case 'nak':
        this.logger.warn(`${msg.subject} attempt ${ctx.attempt}/${spec.maxDeliver} failed, retry in ${settlement.delayMs} ms: ${String(failure)}`);
        return msg.nak(settlement.delayMs);
      // No term reason: nats-server 2.9 only understands a bare +TERM and would ignore the rest.
      case 'term':
        this.logger.error(`${msg.subject} failed permanently: ${settlement.reason}`);
        return msg.term();
      case 'dead-letter': {
        const deadLetter: DeadLetter = {
          stream: spec.stream,
          durable: spec.durable,
          subject: msg.subject,
          streamSeq: msg.seq,
          payload,
          deliveries: ctx.attempt,
          reason: 'last-attempt',
          error: settlement.reason,
        };
        try {
          await keepDeadLetter(this.options.connection.jetstream(), deadLetter);
          await this.invoke(deadLetterPattern(spec.durable), deadLetter);
          return msg.term();
        } catch (error) {
          // Leave it unsettled: once its ack wait ends, the MAX_DELIVERIES advisory retries the dead letter.
          this.logger.error(`dead-letter handler of ${spec.durable} failed: ${String(error)}`);
        }
      }
    }
  }

  private async invoke(pattern: string, payload: unknown, ctx?: JetStreamContext): Promise<void> {
    const handler = this.getHandlerByPattern(pattern);
    if (!handler) throw new Error(`no handler for ${pattern}`);
    await lastValueFrom(this.transformToObservable(await handler(payload, ctx)), { defaultValue: undefined });
  }

  // Stop pulling, let running handlers finish (bounded), then drain the dead-letter subscriptions.
  async close(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    await Promise.all([...this.batches].map((batch) => batch.close()));
    if ((await withTimeout(Promise.all(this.inFlight), this.options.closeTimeoutMs ?? 30_000)) === 'timeout') {
      this.logger.warn(`closing with ${this.inFlight.size} handlers still running; their messages will be redelivered`);
    }
    await withTimeout(Promise.all(this.loops), 1_000);
    await Promise.all(this.subscriptions.map((sub) => (sub.isClosed() ? undefined : sub.drain())));
  }

  on(): never {
    throw new Error('JetStreamServer emits no events');
  }

  unwrap<T>(): T {
    return this.options.connection as T;
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
