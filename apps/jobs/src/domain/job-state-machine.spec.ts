import type { StoredResultV1 } from '@vj/contracts';
import { transition, type JobCommand } from './job-state-machine';

const result: StoredResultV1 = { job_type: 'clean-audio-video', video: { object_key: 'k', content_type: 'video/mp4', file_name: 'a.mp4', file_size: 1 } };
const processing = { status: 'PROCESSING' as const, attempts: 0 };

describe('job state machine', () => {
  it('completes a processing job with its result and a completed event', () => {
    expect(transition(processing, { kind: 'succeed', result, mediaDurationSeconds: 12.5 })).toEqual({
      outcome: 'applied',
      change: { status: 'COMPLETED', attempts: 0, result, media_duration_seconds: 12.5, finished: true },
      event: 'completed',
    });
  });

  it('fails a processing job with its error and a failed event', () => {
    const error = { code: 'invalid_file' as const, message: 'no audio stream' };
    expect(transition(processing, { kind: 'fail', error })).toMatchObject({ outcome: 'applied', change: { status: 'FAILED', error }, event: 'failed' });
  });

  it('cancels a processing job with a cancelled event', () => {
    expect(transition(processing, { kind: 'cancel' })).toMatchObject({ outcome: 'applied', change: { status: 'CANCELLED' }, event: 'cancelled' });
  });

  it('records a new attempt on a started report without an event', () => {
    expect(transition(processing, { kind: 'start', attempt: 1 })).toEqual({
      outcome: 'applied',
      change: { status: 'PROCESSING', attempts: 1, finished: false },
      event: null,
    });
  });

  it('ignores a duplicate started report', () => {
    expect(transition({ status: 'PROCESSING', attempts: 2 }, { kind: 'start', attempt: 2 }).outcome).toBe('ignored');
  });

  const reports: JobCommand[] = [
    { kind: 'start', attempt: 3 },
    { kind: 'succeed', result, mediaDurationSeconds: 1 },
    { kind: 'fail', error: { code: 'timeout', message: 'late' } },
  ];
  for (const status of ['COMPLETED', 'FAILED', 'CANCELLED'] as const) {
    it(`ignores every late report for a ${status} job`, () => {
      for (const command of reports) expect(transition({ status, attempts: 1 }, command).outcome).toBe('ignored');
    });

    it(`refuses to cancel a ${status} job as a conflict`, () => {
      expect(transition({ status, attempts: 1 }, { kind: 'cancel' })).toEqual({ outcome: 'conflict', reason: `job is already ${status}` });
    });
  }
});
