import { Logger } from '@nestjs/common';
import { CONSUMERS, subjects, type BillingEventPayloads, type JobError } from '@vj/contracts';
import type { DeadLetterHandlers, HandlerTable } from '@vj/messaging';
import type { JobsService } from '../jobs/jobs.service';

const logger = new Logger('BillingEvents');

// Billing's answers to a job's events (decision 0015). Every handler is idempotent: a redelivered event,
// or one for an unknown job or a job it no longer applies to, is acked and changes nothing.
export function billingEventHandlers(jobs: JobsService): HandlerTable {
  return {
    // The estimate is held: the job's work message goes out, once.
    [subjects.billingEvent('hold_placed')]: async (payload) => {
      const event = payload as BillingEventPayloads['hold_placed'];
      const outcome = await jobs.applyCommand(event.job_id, { kind: 'fund' });
      if (outcome === 'ignored') logger.log(`ignored hold_placed for job ${event.job_id}: unknown, final or already funded`);
    },
    [subjects.billingEvent('hold_rejected')]: async (payload) => {
      const event = payload as BillingEventPayloads['hold_rejected'];
      await jobs.failJob(event.job_id, insufficientCredits(event));
    },
    [subjects.billingEvent('charge_captured')]: async (payload) => {
      const event = payload as BillingEventPayloads['charge_captured'];
      await jobs.applyCommand(event.job_id, { kind: 'charge', credits: event.credits_charged });
    },
    // Billing's bookkeeping for a failed or cancelled job: the job has nothing to record.
    [subjects.billingEvent('hold_released')]: () => undefined,
  };
}

// An event we could not apply after every retry. A job never funded is timed out by the sweeper; a
// lost charge only leaves credits_charged empty (billing's ledger still has it).
export const billingEventDeadLetters: DeadLetterHandlers = {
  [CONSUMERS.jobsBillingEvents]: (letter) => logger.error(`billing event ${letter.subject} #${letter.streamSeq} dropped after ${letter.deliveries} deliveries: ${letter.error}`),
};

function insufficientCredits(event: BillingEventPayloads['hold_rejected']): JobError {
  return {
    code: 'insufficient_credits',
    message: `the account's available credits (${event.credits_available}) do not cover the estimate of this job (${event.credits_required})`,
    details: null,
  };
}
