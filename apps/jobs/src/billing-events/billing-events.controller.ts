import { Controller, Inject, Logger, UseFilters } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { CONSUMERS, subjects, type BillingEventPayloads, type JobError } from '@vj/contracts';
import { deadLetterPattern, KeepErrorsFilter, type DeadLetter } from '@vj/messaging';
import { JobsService } from '../jobs/jobs.service';

// Billing's answers to a job's events (decision 0015). Every handler is idempotent: a redelivered event,
// or one for an unknown job or a job it no longer applies to, is acked and changes nothing.
@Controller()
@UseFilters(KeepErrorsFilter)
export class BillingEventsController {
  private readonly logger = new Logger(BillingEventsController.name);

  constructor(@Inject(JobsService) private readonly jobs: JobsService) {}

  // The estimate is held: the job's work message goes out, once.
  @EventPattern(subjects.billingEvent('hold_placed'))
  async holdPlaced(@Payload() event: BillingEventPayloads['hold_placed']): Promise<void> {
    const outcome = await this.jobs.applyCommand(event.job_id, { kind: 'fund' });
    if (outcome === 'ignored') this.logger.log(`ignored hold_placed for job ${event.job_id}: unknown, final or already funded`);
  }

  @EventPattern(subjects.billingEvent('hold_rejected'))
  async holdRejected(@Payload() event: BillingEventPayloads['hold_rejected']): Promise<void> {
    await this.jobs.failJob(event.job_id, insufficientCredits(event));
  }

  @EventPattern(subjects.billingEvent('charge_captured'))
  async chargeCaptured(@Payload() event: BillingEventPayloads['charge_captured']): Promise<void> {
    await this.jobs.applyCommand(event.job_id, { kind: 'charge', credits: event.credits_charged });
  }

  // Billing's bookkeeping for a failed or cancelled job: the job has nothing to record.
  @EventPattern(subjects.billingEvent('hold_released'))
  async holdReleased(): Promise<void> {}

  // An event we could not apply after every retry. A job never funded is timed out by the sweeper; a
  // lost charge only leaves credits_charged empty (billing's ledger still has it).
  @EventPattern(deadLetterPattern(CONSUMERS.jobsBillingEvents))
  deadLetter(@Payload() letter: DeadLetter): void {
    this.logger.error(`billing event ${letter.subject} #${letter.streamSeq} dropped after ${letter.deliveries} deliveries: ${letter.error}`);
  }
}

function insufficientCredits(event: BillingEventPayloads['hold_rejected']): JobError {
  return {
    code: 'insufficient_credits',
    message: `the account's available credits (${event.credits_available}) do not cover the estimate of this job (${event.credits_required})`,
    details: null,
  };
}
