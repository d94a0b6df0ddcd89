import type { JsMsg } from 'nats';

// Second argument of every handler JetStreamConsumers runs: the delivery it handles.
export class JetStreamContext {
  constructor(
    readonly message: JsMsg,
    readonly maxDeliver: number,
    // Aborted when the consumer's maxProcessingMs passes: the message is about to be redelivered elsewhere.
    readonly signal: AbortSignal,
  ) {}

  get subject(): string {
    return this.message.subject;
  }

  // 1-based: 1 on the first delivery.
  get attempt(): number {
    return this.message.info.redeliveryCount;
  }

  get isLastAttempt(): boolean {
    return this.attempt >= this.maxDeliver;
  }

  // JetStreamConsumers already sends keep-alives every ackWait/3; this is for handlers that want to be explicit.
  working(): void {
    this.message.working();
  }
}
