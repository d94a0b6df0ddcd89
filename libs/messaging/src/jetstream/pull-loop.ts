import type { Consumer, ConsumerMessages, JsMsg } from 'nats';
import { setTimeout as sleep } from 'node:timers/promises';

export interface PullLoopOptions {
  durable: string;
  // Handlers of this consumer running at once, at most; 1 settles messages in stream order.
  concurrency: number;
  // A pull request waits this long for messages before the next one is sent.
  expiresMs: number;
  // Read through one long-lived pull that asks for this many messages at a time, instead of a pull
  // per free handler slot: for a consumer whose messages come in bursts and are settled quickly (a pull
  // request per message cost the service and nats-server more than its handler did).
  prefetch?: number;
}

// Where the loop says that a pull or a settlement failed.
export interface PullLog {
  warn(line: string): void;
  error(line: string): void;
}

// One durable pull consumer's loop: hands each message to `handle`, which settles it, with at most
// `concurrency` running. Without `prefetch` it pulls only as many messages as there are free handler
// slots, so nothing waits unprocessed in memory while its ack wait runs out. A failed pull, or one the
// library ends because its consumer or stream is gone (deleted, or lost with a server's storage), is
// retried a second later on the consumer `open` gives again, which makes it where it is missing: left
// to the library, such a pull would wait for the consumer to come back, silently and for ever.
// Messages that come after stop() are handed back (nak) for another instance or the next start.
export class PullLoop {
  // The handlers running now; each settles its own message.
  readonly running = new Set<Promise<void>>();
  private stopping = false;
  private batch: ConsumerMessages | undefined;
  private loop: Promise<void> | undefined;

  constructor(
    // Makes the durable consumer where it is missing, and returns it.
    private readonly open: () => Promise<Consumer>,
    private readonly options: PullLoopOptions,
    private readonly handle: (msg: JsMsg) => Promise<void>,
    private readonly log: PullLog,
  ) {}

  // Reads from `first` (opened by the caller, whose start fails if it cannot be) until stop().
  async run(first: Consumer): Promise<void> {
    const { concurrency, durable } = this.options;
    let consumer: Consumer | undefined = first;
    while (!this.stopping) {
      if (this.running.size >= concurrency) {
        await Promise.race(this.running);
        continue;
      }
      try {
        consumer ??= await this.open();
        if (this.options.prefetch) await this.consume(consumer, this.options.prefetch);
        else await this.fetch(consumer);
      } catch (error) {
        if (this.stopping) break;
        consumer = undefined;
        this.log.warn(`pull from ${durable} failed, retrying: ${String(error)}`);
        await sleep(1_000);
      }
    }
  }

  // Reads in the background from `first` (see run); close() ends it.
  start(first: Consumer): void {
    this.loop = this.run(first);
  }

  // Stops, then waits for the loop and every handler it started: for a reader that must not leave a
  // message in hand when it returns (JetStreamConsumers bounds that wait itself).
  async close(): Promise<void> {
    await this.stop();
    await this.loop;
    await Promise.all(this.running);
  }

  // Pulls no more: what the open pull still brings goes back to the stream (nak), at once for a pull
  // per slot; a long-lived pull is only told to stop, and the messages it already brought are handed
  // back as the loop reads them, which it does as handlers finish.
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.options.prefetch) this.batch?.stop();
    else await this.batch?.close();
  }

  private async fetch(consumer: Consumer): Promise<void> {
    this.batch = await consumer.fetch({ max_messages: this.options.concurrency - this.running.size, expires: this.options.expiresMs });
    for await (const msg of this.batch) this.take(msg);
    this.batch = undefined;
  }

  private async consume(consumer: Consumer, prefetch: number): Promise<void> {
    const messages = await consumer.consume({ max_messages: prefetch, expires: this.options.expiresMs, abort_on_missing_resource: true });
    this.batch = messages;
    // stop() may have come while consume() was asking.
    if (this.stopping) messages.stop();
    for await (const msg of messages) {
      while (this.running.size >= this.options.concurrency) await Promise.race(this.running);
      this.take(msg);
    }
    this.batch = undefined;
    // Ended by the library, not by stop(): asked again, not at once.
    if (!this.stopping) throw new Error('the pull ended');
  }

  private take(msg: JsMsg): void {
    if (this.stopping) {
      msg.nak();
      return;
    }
    const task = this.handle(msg)
      .catch((error: unknown) => this.log.error(`settling ${msg.subject} failed: ${String(error)}`))
      .finally(() => this.running.delete(task));
    this.running.add(task);
  }
}
