import type { JsMsg } from 'nats';

// Second argument of every handler JetStreamConsumers runs: the delivery it handles.
export class JetStreamContext {
  private triesInPlace = 0;

  constructor(
    readonly message: JsMsg,
    readonly maxDeliver: number,
    // Aborted when the consumer's maxProcessingMs passes: the message is about to be redelivered elsewhere.
    readonly signal: AbortSignal,
  ) {}

  get subject(): string {
    return this.message.subject;
  }

  // 1-based: 1 on the first delivery; an ordered consumer's runs again in place count too.
  get attempt(): number {
    return this.message.info.redeliveryCount + this.triesInPlace;
  }

  // Called by JetStreamConsumers before it runs the handler of an ordered consumer again in place.
  retryInPlace(): void {
    this.triesInPlace++;
  }

  get isLastAttempt(): boolean {
    return this.maxDeliver > 0 && this.attempt >= this.maxDeliver;
  }

  // JetStreamConsumers already sends keep-alives every ackWait/3; this is for handlers that want to be explicit.
  working(): void {
    this.message.working();
  }
}
