import { Injectable, Logger } from '@nestjs/common';
import type { JobEventKind, JobEventPayloads } from '@vj/contracts';

// Where billing reacts to job events. For now it only logs them; the pricing issue holds and charges
// credits here.
@Injectable()
export class JobEventLedger {
  private readonly logger = new Logger(JobEventLedger.name);

  async record<K extends JobEventKind>(kind: K, event: JobEventPayloads[K]): Promise<void> {
    this.logger.log(`job ${event.job_id} (${event.job_type}, account ${event.account_id}) ${kind}`);
  }
}
