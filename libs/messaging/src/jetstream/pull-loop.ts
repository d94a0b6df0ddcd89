import type { Logger } from '@nestjs/common';
import type { Consumer, ConsumerMessages, JsMsg } from 'nats';
import { setTimeout as sleep } from 'node:timers/promises';

export interface PullLoopOptions {
  durable: string;
  // Handlers of this consumer running at once, at most.
  concurrency: number;
  // A pull request waits this long for messages before the next one is sent.
  expiresMs: number;
}

// One durable pull consumer's loop: pulls only as many messages as there are free handler slots, so
// nothing waits unprocessed in memory while its ack wait runs out, and hands each to `handle`, which
// settles it. A failed pull is retried a second later on the consumer `open` gives again, which makes
// it where it was deleted (a pull on a deleted consumer never gets a message, nor always an error).
export class PullLoop {
  // The handlers running now; each settles its own message.
  readonly running = new Set<Promise<void>>();
  private stopping = false;
  private batch: ConsumerMessages | undefined;

  constructor(
    // Makes the durable consumer where it is missing, and returns it.
    private readonly open: () => Promise<Consumer>,
    private readonly options: PullLoopOptions,
    private readonly handle: (msg: JsMsg) => Promise<void>,
    private readonly logger: Logger,
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
        this.batch = await consumer.fetch({ max_messages: concurrency - this.running.size, expires: this.options.expiresMs });
        for await (const msg of this.batch) this.take(msg);
        this.batch = undefined;
      } catch (error) {
        if (this.stopping) break;
        consumer = undefined;
        this.logger.warn(`pull from ${durable} failed, retrying: ${String(error)}`);
        await sleep(1_000);
      }
    }
  }

  // Pulls no more: what the open pull still brings goes back to the stream at once.
  async stop(): Promise<void> {
    this.stopping = true;
    await this.batch?.close();
  }

  private take(msg: JsMsg): void {
    if (this.stopping) {
      msg.nak();
      return;
    }
    const task = this.handle(msg)
      .catch((error: unknown) => this.logger.error(`settling ${msg.subject} failed: ${String(error)}`))
      .finally(() => this.running.delete(task));
    this.running.add(task);
  }
}
