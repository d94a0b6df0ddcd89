import { CONSUMERS, JOB_EVENT_KINDS, STREAMS, subjects } from '@vj/contracts';
import type { ConsumerSpec } from '@vj/messaging';

// Billing's own durable cursor over the job event log.
export const JOB_EVENTS_CONSUMER: ConsumerSpec = {
  stream: STREAMS.jobEvents,
  durable: CONSUMERS.billingJobEvents,
  filterSubject: subjects.jobEventAll(),
  subjects: JOB_EVENT_KINDS.map((kind) => subjects.jobEvent(kind)),
  ackWaitMs: 30_000,
  maxDeliver: 10,
  concurrency: 4,
  backoffMs: [1_000, 5_000, 30_000],
  maxProcessingMs: 5 * 60_000,
};
