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
// cost the service and nats-server more than most handlers do. A pull the library ends (its consumer
// deleted) or that fails is asked again a second later. Messages that came but were not settled when
// stop() came are handed back (nak) for another instance or the next start.
export class SequentialPull {
  private stopping = false;
  private messages?: ConsumerMessages;
  private loop?: Promise<void>;

  constructor(
    private readonly consumer: Consumer,
    private readonly settle: (msg: JsMsg) => Promise<void>,
    private readonly options: SequentialPullOptions,
  ) {}

  start(): void {
    this.loop = this.run();
  }

  // Stops asking and waits for the message in hand.
  async stop(): Promise<void> {
    this.stopping = true;
    this.messages?.stop();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      try {
        const messages = await this.consumer.consume({ max_messages: this.options.batch });
        this.messages = messages;
        // stop() may have come while consume() was asking.
        if (this.stopping) messages.stop();
        for await (const msg of messages) {
          if (this.stopping) msg.nak();
          else await this.settle(msg);
        }
        // Ended by the library (its consumer gone for good), not by stop(): asked again, not at once.
        if (!this.stopping) throw new Error('the pull ended');
      } catch (error) {
        if (this.stopping) break;
        this.options.log?.(`pull from ${this.options.name} failed, retrying: ${String(error)}`);
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
  }
}
