import { DEFAULT_RETRY_SCHEDULE, nextAttemptAt, parseRetryAfter, parseRetrySchedule, verdictOf } from './retry-schedule';

describe('the webhook retry schedule', () => {
  it('reads delays with units, and refuses anything else', () => {
    expect(parseRetrySchedule('500ms, 10s,2m,1h,1d')).toEqual([500, 10_000, 120_000, 3_600_000, 86_400_000]);
    for (const bad of ['', '10', '5 s', '1w', '10s,,x']) expect(() => parseRetrySchedule(bad)).toThrow();
  });

  it('keeps trying for at least 24 hours by default, never sooner than the schedule', () => {
    const schedule = parseRetrySchedule(DEFAULT_RETRY_SCHEDULE);
    expect(schedule.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(24 * 3_600_000);
    const now = 1_000_000;
    for (const random of [0, 0.5, 0.999]) {
      const next = nextAttemptAt(schedule, 1, { kind: 'failed' }, now, () => random)!.getTime() - now;
      expect(next).toBeGreaterThanOrEqual(5_000);
      expect(next).toBeLessThanOrEqual(6_000);
    }
    expect(nextAttemptAt(schedule, schedule.length + 1, { kind: 'failed' }, now)).toBeNull();
  });

  it('waits as long as a Retry-After asks when it is longer than the schedule', () => {
    const now = 0;
    expect(nextAttemptAt([1_000], 1, { kind: 'failed', retryAfterMs: 60_000 }, now, () => 0)!.getTime()).toBe(60_000);
    expect(nextAttemptAt([120_000], 1, { kind: 'failed', retryAfterMs: 1_000 }, now, () => 0)!.getTime()).toBe(120_000);
  });

  it('tells delivered, gone and failed apart, taking Retry-After from 429 and 503 only', () => {
    expect(verdictOf(200)).toEqual({ kind: 'delivered' });
    expect(verdictOf(204)).toEqual({ kind: 'delivered' });
    expect(verdictOf(410)).toEqual({ kind: 'gone' });
    expect(verdictOf(302)).toEqual({ kind: 'failed' });
    expect(verdictOf(null)).toEqual({ kind: 'failed' });
    expect(verdictOf(500, '30')).toEqual({ kind: 'failed' });
    expect(verdictOf(429, '30')).toEqual({ kind: 'failed', retryAfterMs: 30_000 });
    expect(verdictOf(503, 'Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toEqual({ kind: 'failed', retryAfterMs: 10_000 });
  });

  it('caps a Retry-After at a day and ignores one it cannot read', () => {
    expect(parseRetryAfter('999999999')).toBe(24 * 3_600_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('Wed, 21 Oct 2015 08:00:00 GMT'))).toBe(0);
  });
});
