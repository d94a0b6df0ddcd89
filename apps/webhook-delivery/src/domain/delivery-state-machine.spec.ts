import type { AttemptResult } from '@vj/webhooks';
import { afterAttempt, retryByHand } from './delivery-state-machine';

const result = (status: number | null, retryAfter: string | null = null): AttemptResult => ({ status, retryAfter, error: status === null ? 'refused' : null, responseBody: '', durationMs: 5 });
const SCHEDULE = [1_000, 60_000];
const pending = { state: 'pending' as const, failed_attempts: 0 };

describe('the delivery state machine', () => {
  it('is delivered on a 2xx', () => {
    expect(afterAttempt(pending, result(204), SCHEDULE, 0)).toEqual({ state: 'delivered', failed_attempts: 0, next_attempt_at: null });
  });

  it('retries on the schedule, then gives up', () => {
    const first = afterAttempt(pending, result(500), SCHEDULE, 0, () => 0);
    expect(first).toEqual({ state: 'failed', failed_attempts: 1, next_attempt_at: new Date(1_000) });
    const second = afterAttempt(first, result(null), SCHEDULE, 10_000, () => 0);
    expect(second).toEqual({ state: 'failed', failed_attempts: 2, next_attempt_at: new Date(70_000) });
    expect(afterAttempt(second, result(503), SCHEDULE, 80_000)).toEqual({ state: 'given_up', failed_attempts: 3, next_attempt_at: null });
  });

  it('waits for a 429 Retry-After longer than the schedule', () => {
    expect(afterAttempt(pending, result(429, '120'), SCHEDULE, 0, () => 0).next_attempt_at).toEqual(new Date(120_000));
  });

  it('gives up at once on 410 and disables the endpoint', () => {
    expect(afterAttempt(pending, result(410), SCHEDULE, 0)).toMatchObject({ state: 'given_up', disableEndpoint: expect.stringContaining('410') });
  });

  it('sends again now on a retry by hand, with the schedule restarted', () => {
    const now = new Date(5);
    expect(retryByHand(now)).toEqual({ state: 'pending', failed_attempts: 0, next_attempt_at: now });
  });
});
