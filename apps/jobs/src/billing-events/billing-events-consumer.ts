import { BILLING_EVENT_KINDS, CONSUMERS, STREAMS, subjects } from '@vj/contracts';
import type { ConsumerSpec } from '@vj/messaging';

// The jobs service's durable cursor over billing's events: small DB updates, retried for a while, then a
// dead letter (an unfunded job is still timed out by the sweeper).
export const BILLING_EVENTS_CONSUMER: ConsumerSpec = {
  stream: STREAMS.billingEvents,
  durable: CONSUMERS.jobsBillingEvents,
  filterSubject: subjects.billingEventAll(),
  subjects: BILLING_EVENT_KINDS.map((kind) => subjects.billingEvent(kind)),
  ackWaitMs: 30_000,
  maxDeliver: 10,
  concurrency: 16,
  backoffMs: [1_000, 5_000, 15_000, 30_000],
  maxProcessingMs: 60_000,
};
