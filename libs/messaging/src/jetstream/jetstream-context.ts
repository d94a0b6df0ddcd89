import { BaseRpcContext } from '@nestjs/microservices';
import type { JsMsg } from 'nats';

// Second argument of every @EventPattern handler served by JetStreamServer.
export class JetStreamContext extends BaseRpcContext<[JsMsg, number, AbortSignal]> {
  get message(): JsMsg {
    return this.args[0];
  }

  get subject(): string {
    return this.args[0].subject;
  }

  // 1-based: 1 on the first delivery.
  get attempt(): number {
    return this.args[0].info.redeliveryCount;
  }

  get maxDeliver(): number {
    return this.args[1];
  }

  get isLastAttempt(): boolean {
    return this.attempt >= this.maxDeliver;
  }

  // Aborted when the consumer's maxProcessingMs passes: the message is about to be redelivered elsewhere.
  get signal(): AbortSignal {
    return this.args[2];
  }

  // The server already sends keep-alives every ackWait/3; this is for handlers that want to be explicit.
  working(): void {
    this.args[0].working();
  }
}
