import { subjects, type JobProgressUpdateV1 } from '@vj/contracts';
import type { JetStreamPublisher } from '@vj/messaging';
import type { ProgressSink } from '../processing/progress-reporter';

export class JetStreamProgressSink implements ProgressSink {
  constructor(private readonly publisher: Pick<JetStreamPublisher, 'publish'>) {}

  async publish(update: JobProgressUpdateV1): Promise<void> {
    // The same value twice in one attempt is one update.
    await this.publisher.publish(subjects.jobUpdate(update.job_id), update, { msgId: `${update.job_id}.${update.attempt}.${update.stage}.${update.progress}` });
  }
}
