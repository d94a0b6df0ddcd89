import type { JetStreamClient, NatsConnection, PubAck } from 'nats';
import { encodeJson } from '../json-codec';

export interface PublishOptions {
  // Sent as Nats-Msg-Id: the stream drops a second message with the same id inside its duplicate window.
  msgId: string;
}

export class JetStreamPublisher {
  private readonly js: JetStreamClient;

  constructor(nc: NatsConnection) {
    this.js = nc.jetstream();
  }

  publish(subject: string, payload: unknown, { msgId }: PublishOptions): Promise<PubAck> {
    return this.js.publish(subject, encodeJson(payload), { msgID: msgId });
  }
}
