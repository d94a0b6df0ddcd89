import { Controller, Logger, UseFilters } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { CONSUMERS, subjects, type JobEventPayloads } from '@vj/contracts';
import { deadLetterPattern, JetStreamPublisher, KeepErrorsFilter, type DeadLetter } from '@vj/messaging';
import type { BillingEventDraft } from '../job-billing/billing-event-drafts';
import { JobBillingService } from '../job-billing/job-billing.service';

// One handler per job event kind (JetStreamServer refuses to boot if one is missing or doubled). The
// ledger is written first, then billing's event published; the job event is acked only after both, so a
// crash between them republishes the same event (same Nats-Msg-Id and event_id) on redelivery.
@Controller()
@UseFilters(KeepErrorsFilter)
export class JobEventsController {
  private readonly logger = new Logger(JobEventsController.name);

  constructor(
    private readonly billing: JobBillingService,
    private readonly publisher: JetStreamPublisher,
  ) {}

  @EventPattern(subjects.jobEvent('created'))
  async created(@Payload() event: JobEventPayloads['created']): Promise<void> {
    await this.publish(await this.billing.onCreated(event));
  }

  @EventPattern(subjects.jobEvent('completed'))
  async completed(@Payload() event: JobEventPayloads['completed']): Promise<void> {
    await this.publish(await this.billing.onCompleted(event));
  }

  @EventPattern(subjects.jobEvent('failed'))
  async failed(@Payload() event: JobEventPayloads['failed']): Promise<void> {
    await this.publish(await this.billing.onClosed(event));
  }

  @EventPattern(subjects.jobEvent('cancelled'))
  async cancelled(@Payload() event: JobEventPayloads['cancelled']): Promise<void> {
    await this.publish(await this.billing.onClosed(event));
  }

  // An event billing could not handle after every retry: logged loudly so an operator can replay it.
  @EventPattern(deadLetterPattern(CONSUMERS.billingJobEvents))
  async deadLetter(@Payload() letter: DeadLetter): Promise<void> {
    this.logger.error(`job event ${letter.subject} #${letter.streamSeq} dead after ${letter.deliveries} deliveries: ${letter.error}`);
  }

  private async publish(drafts: BillingEventDraft[]): Promise<void> {
    for (const draft of drafts) await this.publisher.publish(draft.subject, draft.payload, { msgId: draft.msgId });
  }
}
