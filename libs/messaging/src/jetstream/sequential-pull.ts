import type { Consumer, ConsumerMessages, JsMsg } from 'nats';

const RETRY_MS = 1_000;

export interface SequentialPullOptions {
  // The consumer's name, for the log.
  name: string;
  // How many messages the pull asks for at once (the library asks for more as each quarter comes).
  batch: number;
  log?: (line: string) => void;
}

// Reads a durable consumer through one long-lived pull (consume), handing each message to `settle` in
// the order it came and waiting for it before the next, until stop(). One pull for the consumer's
// lifetime, where a fetch per message or per batch subscribed, asked and unsubscribed each time: that
// cost the service and nats-server more than most handlers do. A pull that fails, or that the library
// ends because its consumer or stream is gone (deleted, or lost with a server's storage), is asked
// again a second later from `open`, which makes the consumer again where it is missing: left to the
// library, such a pull would wait for the consumer to come back, silently and for ever. Messages that
// came but were not settled when stop() came are handed back (nak) for another instance or the next start.
export class SequentialPull {
  private stopping = false;
  private messages?: ConsumerMessages;
  private loop?: Promise<void>;

  constructor(
    // Makes the durable consumer where it is missing, and returns it.
    private readonly open: () => Promise<Consumer>,
    private readonly settle: (msg: JsMsg) => Promise<void>,
    private readonly options: SequentialPullOptions,
  ) {}

  // Opens the consumer (its failure is the caller's, as at boot), then reads in the background.
  async start(): Promise<void> {
    const consumer = await this.open();
    this.loop = this.run(consumer);
  }

  // Stops asking and waits for the message in hand.
  async stop(): Promise<void> {
    this.stopping = true;
    this.messages?.stop();
    await this.loop;
  }

  private async run(first: Consumer): Promise<void> {
    let consumer: Consumer | undefined = first;
    while (!this.stopping) {
      try {
        consumer ??= await this.open();
        const messages = await consumer.consume({ max_messages: this.options.batch, abort_on_missing_resource: true });
        this.messages = messages;
        // stop() may have come while consume() was asking.
        if (this.stopping) messages.stop();
        for await (const msg of messages) {
          if (this.stopping) msg.nak();
          else await this.settle(msg);
        }
        // Ended by the library, not by stop(): asked again, not at once.
        if (!this.stopping) throw new Error('the pull ended');
      } catch (error) {
        if (this.stopping) break;
        consumer = undefined;
        this.options.log?.(`pull from ${this.options.name} failed, retrying: ${String(error)}`);
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
  }
}
