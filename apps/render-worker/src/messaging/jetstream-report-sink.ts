import { subjects, type JobReportKind, type ReportPayloads } from '@vj/contracts';
import type { JetStreamPublisher } from '@vj/messaging';
import type { ReportSink } from '../processing/ports';

export class JetStreamReportSink implements ReportSink {
  constructor(private readonly publisher: Pick<JetStreamPublisher, 'publish'>) {}

  async publish<K extends JobReportKind>(kind: K, report: ReportPayloads[K], msgId: string): Promise<void> {
    await this.publisher.publish(subjects.report(kind), report, { msgId });
  }
}
