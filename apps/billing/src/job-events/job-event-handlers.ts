import { Logger } from '@nestjs/common';
import { CONSUMERS, JOB_EVENT_KINDS, subjects, type JobEventKind, type JobEventPayloads } from '@vj/contracts';
import type { DeadLetterHandlers, HandlerTable } from '@vj/messaging';
import type { JobBillingService } from '../job-billing/job-billing.service';

type JobEventHandlers = { [K in JobEventKind]: (event: JobEventPayloads[K]) => Promise<void> | void };

const logger = new Logger('JobEvents');

// One handler per job event kind: a kind without one does not compile. The ledger entries and
// billing's event (in the outbox) commit together; the relay publishes the event.
export function jobEventHandlers(billing: JobBillingService): HandlerTable {
  const handlers: JobEventHandlers = {
    created: (event) => billing.onCreated(event),
    // The hold was placed at created and is settled at the end: a start changes nothing in billing.
    started: () => undefined,
    completed: (event) => billing.onCompleted(event),
    failed: (event) => billing.onClosed(event),
    cancelled: (event) => billing.onClosed(event),
  };
  // The payload is the job event the subject names (the jobs service's outbox writes both together).
  return Object.fromEntries(JOB_EVENT_KINDS.map((kind) => [subjects.jobEvent(kind), (payload: unknown) => handlers[kind](payload as never)]));
}

// An event billing could not handle after every retry: logged loudly so an operator can replay it.
export const jobEventDeadLetters: DeadLetterHandlers = {
  [CONSUMERS.billingJobEvents]: (letter) => logger.error(`job event ${letter.subject} #${letter.streamSeq} dead after ${letter.deliveries} deliveries: ${letter.error}`),
};
