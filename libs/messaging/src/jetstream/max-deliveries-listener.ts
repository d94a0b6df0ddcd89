import type { LoggerService } from '@nestjs/common';
import { queueGroups, subjects } from '@vj/contracts';
import type { JetStreamManager, NatsConnection, StoredMsg, Subscription } from 'nats';
import { decodeJson } from '../json-codec';
import { isNotFound } from './api-errors';
import { keepDeadLetter, undecodableLetter } from './keep-dead-letter';
import type { DeadLetter } from './dead-letter';
import type { DeadLetterSource } from './handler-check';

// io.nats.jetstream.advisory.v1.max_deliver (fields we use).
interface MaxDeliveriesAdvisory {
  stream: string;
  consumer: string;
  stream_seq: number;
  deliveries: number;
}

// JetStream publishes MAX_DELIVERIES when a message reached max_deliver without being settled (the
// process died or hung on its last attempt). The message is still in the stream: read it by sequence,
// hand it to the dead-letter handler, then delete it so a work queue does not keep it forever.
// A queue group makes one instance of the service handle each advisory.
export function listenForMaxDeliveries(
  nc: NatsConnection,
  jsm: JetStreamManager,
  source: DeadLetterSource,
  handle: (deadLetter: DeadLetter) => Promise<void>,
  logger: LoggerService,
): Subscription {
  const onAdvisory = async (data: Uint8Array) => {
    const advisory = decodeJson<MaxDeliveriesAdvisory>(data);
    let stored;
    try {
      stored = await jsm.streams.getMessage(source.stream, { seq: advisory.stream_seq });
    } catch (error) {
      // Another path (the last-attempt handler, or a peer) already dealt with it.
      if (isNotFound(error)) return;
      throw error;
    }
    const letter = handledLetter(source, stored, advisory.deliveries);
    if ('failure' in letter) {
      // Not JSON: kept only, its handler could not read it.
      await keepDeadLetter(nc.jetstream(), undecodableLetter(source, stored, advisory.deliveries, letter.failure));
    } else {
      await keepDeadLetter(nc.jetstream(), letter);
      await handle(letter);
    }
    await jsm.streams.deleteMessage(source.stream, stored.seq, false);
  };
  return nc.subscribe(subjects.maxDeliveriesAdvisory(source.stream, source.durable), {
    queue: queueGroups.deadLetters(source.durable),
    callback: (error, msg) => {
      if (error) return logger.error(`dead-letter advisory subscription of ${source.durable}: ${error.message}`);
      onAdvisory(msg.data).catch((failure: unknown) =>
        logger.error(`dead letter of ${source.durable} not handled: ${String(failure)}`),
      );
    },
  });
}

// The dead letter its handler gets, or why the message could not be decoded.
function handledLetter(source: DeadLetterSource, stored: StoredMsg, deliveries: number): DeadLetter | { failure: unknown } {
  try {
    const payload = decodeJson(stored.data);
    return { stream: source.stream, durable: source.durable, subject: stored.subject, streamSeq: stored.seq, payload, deliveries, reason: 'max-deliveries', error: `not settled after ${deliveries} deliveries` };
  } catch (failure) {
    return { failure };
  }
}
