import { HandBack } from './hand-back';
import { PermanentMessageError } from './permanent-message-error';

export type Settlement =
  | { kind: 'ack' }
  | { kind: 'term'; reason: string }
  | { kind: 'nak'; delayMs: number }
  // Last attempt failed: hand the message to the consumer's dead-letter handler, then term it.
  | { kind: 'dead-letter'; reason: string };

export interface Attempt {
  attempt: number;
  maxDeliver: number;
  backoffMs: number[];
}

// Pure: how a handler's outcome settles its message (ack / delayed nak / term / dead letter).
export function decideSettlement(error: unknown, { attempt, maxDeliver, backoffMs }: Attempt): Settlement {
  if (error === undefined) return { kind: 'ack' };
  const reason = error instanceof Error ? error.message : String(error);
  if (error instanceof PermanentMessageError) return { kind: 'term', reason };
  // Not a failure: back to the stream, never to the dead letters (max_deliver still bounds a loop).
  if (error instanceof HandBack) return { kind: 'nak', delayMs: error.delayMs };
  if (attempt >= maxDeliver) return { kind: 'dead-letter', reason };
  const delayMs = backoffMs.length ? backoffMs[Math.min(attempt - 1, backoffMs.length - 1)] : 0;
  return { kind: 'nak', delayMs };
}
