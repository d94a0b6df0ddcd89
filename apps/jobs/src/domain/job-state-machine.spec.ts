import type { StoredResultV1 } from '@vj/contracts';
import { transition, type JobCommand, type JobState } from './job-state-machine';

const result: StoredResultV1 = { job_type: 'clean-audio-video', video: { object_key: 'k', content_type: 'video/mp4', file_name: 'a.mp4', file_size: 1 } };
const processing: JobState = { status: 'PROCESSING', attempts: 0, failed_attempts: 0, funded_at: null, credits_charged: null };
const funded: JobState = { ...processing, funded_at: new Date('2025-01-01T00:00:01Z') };
const final = (status: 'COMPLETED' | 'FAILED' | 'CANCELLED'): JobState => ({ ...funded, status, attempts: 1 });

describe('job state machine', () => {
  it('funds a processing job once, which sends its work, without an event', () => {
    expect(transition(processing, { kind: 'fund' })).toEqual({
      outcome: 'applied',
      change: { status: 'PROCESSING', attempts: 0, funded: true, finished: false },
      event: null,
    });
  });

  it('ignores a redelivered hold_placed for a job already funded', () => {
    expect(transition(funded, { kind: 'fund' })).toEqual({ outcome: 'ignored', reason: 'job is already funded' });
  });

  it('records the charge on a completed job without an event, and ignores the same charge again', () => {
    const completed = final('COMPLETED');
    expect(transition(completed, { kind: 'charge', credits: 7 })).toEqual({
      outcome: 'applied',
      change: { status: 'COMPLETED', attempts: 1, credits_charged: 7, finished: false },
      event: null,
    });
    expect(transition({ ...completed, credits_charged: 7 }, { kind: 'charge', credits: 7 }).outcome).toBe('ignored');
  });

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

  it('records the first attempt on a started report with a started event', () => {
    expect(transition(processing, { kind: 'start', attempt: 1 })).toEqual({
      outcome: 'applied',
      change: { status: 'PROCESSING', attempts: 1, finished: false },
      event: 'started',
    });
  });

  it('records a retry\'s attempt without an event: a job starts once', () => {
    expect(transition({ ...processing, attempts: 1 }, { kind: 'start', attempt: 2 })).toEqual({
      outcome: 'applied',
      change: { status: 'PROCESSING', attempts: 2, finished: false },
      event: null,
    });
  });

  it('ignores a duplicate started report', () => {
    expect(transition({ ...funded, attempts: 2 }, { kind: 'start', attempt: 2 }).outcome).toBe('ignored');
  });

  const lateCommands: JobCommand[] = [
    { kind: 'start', attempt: 3 },
    { kind: 'succeed', result, mediaDurationSeconds: 1 },
    { kind: 'fail', error: { code: 'timeout', message: 'late' } },
  ];
  for (const status of ['COMPLETED', 'FAILED', 'CANCELLED'] as const) {
    it(`ignores every late report and a late hold_placed for a ${status} job`, () => {
      for (const command of lateCommands) expect(transition(final(status), command).outcome).toBe('ignored');
      // Cancelled or timed out before billing answered: the work never goes out.
      expect(transition({ ...final(status), funded_at: null }, { kind: 'fund' }).outcome).toBe('ignored');
    });

    it(`refuses to cancel a ${status} job as a conflict`, () => {
      expect(transition(final(status), { kind: 'cancel' })).toEqual({ outcome: 'conflict', reason: `job is already ${status}` });
    });
  }

  it('records a failed attempt once, keeping the largest count, without an event', () => {
    const started = { ...funded, attempts: 2, failed_attempts: 1 };
    expect(transition(started, { kind: 'record_failure', failedAttempts: 2 })).toEqual({
      outcome: 'applied',
      change: { status: 'PROCESSING', attempts: 2, failed_attempts: 2, finished: false },
      event: null,
    });
    expect(transition(started, { kind: 'record_failure', failedAttempts: 1 }).outcome).toBe('ignored');
    expect(transition(final('COMPLETED'), { kind: 'record_failure', failedAttempts: 5 }).outcome).toBe('ignored');
  });

  it('expires a job that never started as a queue timeout, and one that ran as a processing timeout', () => {
    expect(transition(funded, { kind: 'expire' })).toMatchObject({
      outcome: 'applied',
      change: { status: 'FAILED', error: { code: 'timeout', details: [{ type: 'queue_timeout' }] } },
      event: 'failed',
    });
    expect(transition({ ...funded, attempts: 1 }, { kind: 'expire' })).toMatchObject({
      change: { status: 'FAILED', error: { code: 'timeout', message: 'processing exceeded the time limit of the job type', details: null } },
    });
    expect(transition(final('CANCELLED'), { kind: 'expire' }).outcome).toBe('ignored');
  });
});
