import { subjects, type DeadLetterRecordV1 } from '@vj/contracts';
import type { JetStreamClient } from 'nats';
import { encodeJson } from '../json-codec';
import type { DeadLetter } from './dead-letter';
import type { DeadLetterSource } from './handler-check';

// A dead letter as kept: a handled one, or a message no handler could be given (reason 'undecodable').
export type KeptLetter = Omit<DeadLetter, 'reason'> & { reason: DeadLetterRecordV1['reason'] };

// Every dead letter is kept in VJ_DEAD_LETTERS before its handler runs, so nothing a consumer gives up
// on is only logged: an operator lists and replays them (CLI `dead-letters`). The msgId names the
// original message, so the two paths that may dead-letter it (last attempt, advisory) keep one record.
export async function keepDeadLetter(js: JetStreamClient, letter: KeptLetter, now = new Date()): Promise<void> {
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

// What is kept of an undecodable message: enough to see who sent it, and small enough that its record
// (up to 3 bytes a character once invalid bytes become U+FFFD) stays far under NATS's 1 MiB payload,
// or it could never be kept and would come back for ever.
const UNDECODABLE_KEPT_BYTES = 64 * 1024;

// A message that is not JSON: no handler can take it and no retry can mend it. It is kept with its
// first bytes as text (invalid UTF-8 shown as U+FFFD) for an operator to see who sent it.
export function undecodableLetter(
  source: DeadLetterSource,
  message: { subject: string; seq: number; data: Uint8Array },
  deliveries: number,
  failure: unknown,
): KeptLetter {
  return {
    stream: source.stream,
    durable: source.durable,
    subject: message.subject,
    streamSeq: message.seq,
    payload: new TextDecoder().decode(message.data.subarray(0, UNDECODABLE_KEPT_BYTES)),
    deliveries,
    reason: 'undecodable',
    error: message.data.length > UNDECODABLE_KEPT_BYTES ? `${String(failure)} (its first ${UNDECODABLE_KEPT_BYTES} of ${message.data.length} bytes kept)` : String(failure),
  };
}
