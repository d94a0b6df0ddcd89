import type { ConsumerName, StreamName } from '@vj/contracts';

// A durable pull consumer and how its messages are settled; declared once by the service that owns it.
export interface ConsumerSpec {
  stream: StreamName;
  durable: ConsumerName;
  filterSubject: string;
  // Every subject the consumer receives; each needs exactly one handler (JetStreamConsumers).
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
}
