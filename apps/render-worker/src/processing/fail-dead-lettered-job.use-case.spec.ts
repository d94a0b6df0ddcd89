import { Logger } from '@nestjs/common';
import { CONSUMERS, STREAMS, type JobReportKind } from '@vj/contracts';
import type { DeadLetter } from '@vj/messaging';
import { FailDeadLetteredJobUseCase } from './fail-dead-lettered-job.use-case';

const letter = (payload: unknown): DeadLetter => ({
  stream: STREAMS.work,
  durable: CONSUMERS.renderWorker,
  subject: 'vj.work.v1.clean-audio-video',
  streamSeq: 7,
  payload,
  deliveries: 3,
  reason: 'max-deliveries',
  error: 'not settled after 3 deliveries',
});

describe('FailDeadLetteredJobUseCase', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('fails a dead-lettered job with generation_failed under the last attempt message id', async () => {
    const published: { kind: JobReportKind; report: unknown; msgId: string }[] = [];
    const useCase = new FailDeadLetteredJobUseCase({ publish: async (kind, report, msgId) => void published.push({ kind, report, msgId }) });
    await useCase.execute(letter({ version: 1, job_id: 'job-1', account_id: 'acct-1', job_type: 'clean-audio-video' }));
    expect(published).toEqual([
      {
        kind: 'failed',
        msgId: 'job-1:failed:3',
        report: {
          version: 1,
          job_id: 'job-1',
          account_id: 'acct-1',
          job_type: 'clean-audio-video',
          error: { code: 'generation_failed', message: 'Processing never finished: the work was delivered 3 times', details: null },
        },
      },
    ]);
  });

  it('drops a dead letter whose payload is not a job', async () => {
    const publish = jest.fn();
    await new FailDeadLetteredJobUseCase({ publish }).execute(letter('garbage'));
    expect(publish).not.toHaveBeenCalled();
  });
});
