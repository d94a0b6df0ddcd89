import { Controller, Logger, UseFilters } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { CONSUMERS, subjects, type JobEventPayloads } from '@vj/contracts';
import { deadLetterPattern, KeepErrorsFilter, type DeadLetter } from '@vj/messaging';
import { JobEventLedger } from './job-event-ledger';


// One handler per job event kind (JetStreamServer refuses to boot if one is missing or doubled).
@Controller()
@UseFilters(KeepErrorsFilter)
export class JobEventsController {
  private readonly logger = new Logger(JobEventsController.name);

  constructor(private readonly ledger: JobEventLedger) {}

  @EventPattern(subjects.jobEvent('created'))
  created(@Payload() event: JobEventPayloads['created']): Promise<void> {
    return this.ledger.record('created', event);
  }

  @EventPattern(subjects.jobEvent('completed'))
  completed(@Payload() event: JobEventPayloads['completed']): Promise<void> {
    return this.ledger.record('completed', event);
  }

  @EventPattern(subjects.jobEvent('failed'))
  failed(@Payload() event: JobEventPayloads['failed']): Promise<void> {
    return this.ledger.record('failed', event);
  }

  @EventPattern(subjects.jobEvent('cancelled'))
  cancelled(@Payload() event: JobEventPayloads['cancelled']): Promise<void> {
    return this.ledger.record('cancelled', event);
  }

  // An event billing could not handle after every retry: logged loudly so an operator can replay it.
  @EventPattern(deadLetterPattern(CONSUMERS.billingJobEvents))
  async deadLetter(@Payload() letter: DeadLetter): Promise<void> {
    this.logger.error(`job event ${letter.subject} #${letter.streamSeq} dead after ${letter.deliveries} deliveries: ${letter.error}`);
  }
}
