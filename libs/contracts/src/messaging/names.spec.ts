import { CONSUMERS, STREAM_SUBJECTS, STREAMS, subjects } from './names';

describe('name resolver', () => {
  it('puts every work, report and event subject inside its stream', () => {
    const matches = (pattern: string, subject: string) => subject.startsWith(pattern.replace(/>$/, ''));
    expect(matches(STREAM_SUBJECTS[STREAMS.work][0], subjects.work('clean-audio-video'))).toBe(true);
    expect(matches(STREAM_SUBJECTS[STREAMS.reports][0], subjects.report('succeeded'))).toBe(true);
    expect(matches(STREAM_SUBJECTS[STREAMS.jobEvents][0], subjects.jobEvent('cancelled'))).toBe(true);
    expect(matches(STREAM_SUBJECTS[STREAMS.billingEvents][0], subjects.billingEvent('charge_captured'))).toBe(true);
  });

  it('builds the max-deliveries advisory subject JetStream publishes for a consumer', () => {
    expect(subjects.maxDeliveriesAdvisory(STREAMS.work, CONSUMERS.renderWorker)).toBe('$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.VJ_WORK.render-worker');
  });
});
