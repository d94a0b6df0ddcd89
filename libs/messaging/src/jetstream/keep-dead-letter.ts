import { subjects, type DeadLetterRecordV1 } from '@vj/contracts';
import type { JetStreamClient } from 'nats';
import { encodeJson } from '../json-codec';
import type { DeadLetter } from './dead-letter';

// Every dead letter is kept in VJ_DEAD_LETTERS before its handler runs, so nothing a consumer gives up
// on is only logged: an operator lists and replays them (CLI `dead-letters`). The msgId names the
// original message, so the two paths that may dead-letter it (last attempt, advisory) keep one record.
export async function keepDeadLetter(js: JetStreamClient, letter: DeadLetter, now = new Date()): Promise<void> {
  const record: DeadLetterRecordV1 = {
    version: 1,
    stream: letter.stream,
    consumer: letter.durable,
    subject: letter.subject,
    stream_seq: letter.streamSeq,
    payload: letter.payload,
    deliveries: letter.deliveries,
    reason: letter.reason,
    error: letter.error,
    dead_at: now.toISOString(),
  };
  await js.publish(subjects.deadLetter(letter.durable), encodeJson(record), { msgID: `dead:${letter.stream}:${letter.streamSeq}` });
}
