import { inSpan, outgoingHeaders, SpanKind } from '@vj/observability';
import type { JetStreamClient, NatsConnection, PubAck } from 'nats';
import { encodeJson } from '../json-codec';

export interface PublishOptions {
  // Sent as Nats-Msg-Id: the stream drops a second message with the same id inside its duplicate window.
  msgId: string;
}

// Every message carries the current request_id, its payload's job_id and account_id, and the trace
// context (traceparent) in NATS headers; JetStreamConsumers restores them around its handler.
export class JetStreamPublisher {
  private readonly js: JetStreamClient;

  constructor(nc: NatsConnection) {
    this.js = nc.jetstream();
  }

  publish(subject: string, payload: unknown, { msgId }: PublishOptions): Promise<PubAck> {
    return inSpan({ name: `${subject} publish`, kind: SpanKind.PRODUCER, attributes: { 'messaging.system': 'nats', 'messaging.destination.name': subject } }, () =>
      this.js.publish(subject, encodeJson(payload), { msgID: msgId, headers: outgoingHeaders(payload) }),
    );
  }
}
