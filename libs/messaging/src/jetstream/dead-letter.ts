import type { ConsumerName, StreamName } from '@vj/contracts';

// What a dead-letter handler receives: the original message and why it gave up.
export interface DeadLetter<T = unknown> {
  stream: StreamName;
  durable: ConsumerName;
  subject: string;
  streamSeq: number;
  payload: T;
  deliveries: number;
  // last-attempt: the handler failed on the final delivery; max-deliveries: it never settled (crash, hang).
  reason: 'last-attempt' | 'max-deliveries';
  error: string;
}

const PREFIX = 'dead-letter:';

// How a consumer's dead-letter handler is named in JetStreamConsumers' boot check.
export function deadLetterPattern(durable: ConsumerName): string {
  return `${PREFIX}${durable}`;
}
