import { Controller, Logger, UseFilters } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { CONSUMERS, subjects, type JobEventPayloads } from '@vj/contracts';
import { deadLetterPattern, KeepErrorsFilter, type DeadLetter } from '@vj/messaging';
import { JobBillingService } from '../job-billing/job-billing.service';

// One handler per job event kind (JetStreamServer refuses to boot if one is missing or doubled). The
// ledger entries and billing's event (in the outbox) commit together; the relay publishes the event.
@Controller()
@UseFilters(KeepErrorsFilter)
export class JobEventsController {
  private readonly logger = new Logger(JobEventsController.name);

  constructor(private readonly billing: JobBillingService) {}

  @EventPattern(subjects.jobEvent('created'))
  async created(@Payload() event: JobEventPayloads['created']): Promise<void> {
    await this.billing.onCreated(event);
  }

  // The hold was placed at created and is settled at the end: a start changes nothing in billing.
  @EventPattern(subjects.jobEvent('started'))
  started(): void {
    return;
  }

  @EventPattern(subjects.jobEvent('completed'))
  async completed(@Payload() event: JobEventPayloads['completed']): Promise<void> {
    await this.billing.onCompleted(event);
  }

  @EventPattern(subjects.jobEvent('failed'))
  async failed(@Payload() event: JobEventPayloads['failed']): Promise<void> {
    await this.billing.onClosed(event);
  }

  @EventPattern(subjects.jobEvent('cancelled'))
  async cancelled(@Payload() event: JobEventPayloads['cancelled']): Promise<void> {
    await this.billing.onClosed(event);
  }

  // An event billing could not handle after every retry: logged loudly so an operator can replay it.
  @EventPattern(deadLetterPattern(CONSUMERS.billingJobEvents))
  async deadLetter(@Payload() letter: DeadLetter): Promise<void> {
    this.logger.error(`job event ${letter.subject} #${letter.streamSeq} dead after ${letter.deliveries} deliveries: ${letter.error}`);
  }
}
