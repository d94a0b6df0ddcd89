import type { ConsumerName, StreamName } from '@vj/contracts';

// A durable pull consumer and how its messages are settled; declared once by the service that owns it.
export interface ConsumerSpec {
  stream: StreamName;
  durable: ConsumerName;
  filterSubject: string;
  // Every subject the consumer receives; each needs exactly one handler (JetStreamConsumers). A subject
  // with NATS wildcards (one token `*`, the rest `>`) has one handler for all it matches.
  subjects: string[];
  ackWaitMs: number;
  maxDeliver: number;
  // Handlers running at once in this process.
  concurrency: number;
  // Messages out unacknowledged at once across every instance (max_ack_pending); 1 keeps stream order.
  maxAckPending?: number;
  // Delay before redelivery after a transient error, by attempt; the last value repeats.
  backoffMs: number[];
  // working() keep-alives stop after this, so a hung handler's message is redelivered.
  maxProcessingMs: number;
  // Also dead-letter messages that reached max_deliver without being settled (crashed process), from the
  // MAX_DELIVERIES advisory. Default true; false when another service watches this consumer's advisory.
  advisoryDeadLetters?: boolean;
  // Stream order kept (concurrency and maxAckPending 1): a failing handler is run again in place after
  // backoffMs, holding the messages behind it, rather than handed back for redelivery. maxDeliver -1
  // then retries until it succeeds (a consumer that must not skip a message through an outage).
  ordered?: boolean;
  // false: a message out of deliveries is terminated and logged, left in the stream, instead of kept
  // in VJ_DEAD_LETTERS with a dead-letter handler (for messages that are worthless once late). Default true.
  deadLetters?: boolean;
  // Messages on subjects outside `subjects` (kinds newer than this code) are acknowledged unseen
  // instead of failing, so new kinds never block the consumer.
  skipUnknownSubjects?: boolean;
  // Read through one long-lived pull asking for this many at a time (pull-loop.ts), for consumers whose
  // messages come in bursts and are settled quickly.
  prefetch?: number;
  // false: no log line for each message handled (a consumer of many small messages a second); its
  // metrics and failures are still recorded. Default true.
  logEachMessage?: boolean;
}
