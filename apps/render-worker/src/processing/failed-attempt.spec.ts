import { MaxProcessingTimeExceeded, RpcError } from '@vj/messaging';
import { MediaError } from '../media';
import { DoubtfulMediaError } from '../media/media-error';
import { JobEnded, WorkAbandoned } from './cancellation-registry';
import { failedAttempt } from './failed-attempt';

const FIRST = { failedBefore: 0, isLastDelivery: false };
// The third attempt of three, or JetStream's last delivery whatever the count.
const LAST_BY_COUNT = { failedBefore: 2, isLastDelivery: false };
const LAST_DELIVERY = { failedBefore: 0, isLastDelivery: true };
const MAX = 3;

describe('failedAttempt', () => {
  it('stops without a report when the job ended elsewhere, and hands the message back on shutdown', () => {
    const ended = new JobEnded('job-1', 'CANCELLED');
    expect(failedAttempt(ended, new Error('aborted'), FIRST, MAX)).toEqual({ kind: 'ended', reason: ended });
    const shutdown = new WorkAbandoned('shutting down');
    expect(failedAttempt(shutdown, new Error('aborted'), LAST_DELIVERY, MAX)).toEqual({ kind: 'abandoned', reason: shutdown });
  });

  it('fails with timeout a delivery that outlived every limit, whatever it threw', () => {
    const limit = new MaxProcessingTimeExceeded(60_000);
    expect(failedAttempt(limit, new MediaError('invalid_file', 'x'), FIRST, MAX)).toEqual({ kind: 'timed_out', reason: limit });
  });

  it('hands back an outage of a dependency, even on the last attempt: no attempt is spent', () => {
    expect(failedAttempt(undefined, new RpcError('unavailable', 'no responders'), LAST_BY_COUNT, MAX)).toEqual({ kind: 'outage' });
  });

  it.each([
    ['a doubtful media error with attempts left', new DoubtfulMediaError('invalid_file', 'crashed'), FIRST, { kind: 'retry', unexpected: false }],
    ['an error of ours with attempts left', new Error('boom'), FIRST, { kind: 'retry', unexpected: true }],
    ["the input's own failure, at once", new MediaError('invalid_file', 'not a video'), FIRST, { kind: 'fail', error: { code: 'invalid_file', message: 'not a video', details: null }, unexpected: false }],
    ['a doubtful media error on the last attempt, as the input\'s', new DoubtfulMediaError('invalid_file', 'crashed'), LAST_DELIVERY, { kind: 'fail', error: { code: 'invalid_file', message: 'crashed', details: null }, unexpected: false }],
    ['an error of ours on the last attempt by count', new Error('boom'), LAST_BY_COUNT, { kind: 'fail', error: { code: 'generation_failed', message: 'Processing failed after 3 attempts', details: null }, unexpected: true }],
    ['an error of ours on the last delivery', new Error('boom'), LAST_DELIVERY, { kind: 'fail', error: { code: 'generation_failed', message: 'Processing failed after 1 attempts', details: null }, unexpected: true }],
  ])('decides %s', (_case, error, attempt, expected) => {
    expect(failedAttempt(undefined, error, attempt, MAX)).toEqual(expected);
  });
});
