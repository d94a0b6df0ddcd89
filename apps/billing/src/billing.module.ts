import { Module } from '@nestjs/common';
import { JobEventLedger } from './job-events/job-event-ledger';
import { JobEventsController } from './job-events/job-events.controller';

@Module({
  controllers: [JobEventsController],
  providers: [JobEventLedger],
})
export class BillingModule {}
