import type { WebhookDeliveryState } from '@vj/contracts';
import { nextAttemptAt, verdictOf, type AttemptResult } from '@vj/webhooks';

// pending -> delivered | given_up (or failed while retries remain); final states change only by a
// retry by hand, which makes the delivery pending and due now. Pure: the dispatcher applies it.

export interface DeliveryState {
  state: WebhookDeliveryState;
  failed_attempts: number;
}

export type DeliveryOutcome =
  | { state: 'delivered'; failed_attempts: number; next_attempt_at: null; disableEndpoint?: undefined }
  | { state: 'failed'; failed_attempts: number; next_attempt_at: Date; disableEndpoint?: undefined }
  | { state: 'given_up'; failed_attempts: number; next_attempt_at: null; disableEndpoint?: string };

export function afterAttempt(delivery: DeliveryState, result: AttemptResult, schedule: readonly number[], now: number, random?: () => number): DeliveryOutcome {
  const verdict = verdictOf(result.status, result.retryAfter, now);
  const failed = delivery.failed_attempts + 1;
  if (verdict.kind === 'delivered') return { state: 'delivered', failed_attempts: delivery.failed_attempts, next_attempt_at: null };
  // 410 Gone: the receiver asks never to be called again.
  if (verdict.kind === 'gone') return { state: 'given_up', failed_attempts: failed, next_attempt_at: null, disableEndpoint: 'the receiver answered 410 Gone' };
  const next = nextAttemptAt(schedule, failed, verdict, now, random);
  if (!next) return { state: 'given_up', failed_attempts: failed, next_attempt_at: null };
  return { state: 'failed', failed_attempts: failed, next_attempt_at: next };
}

// POST .../deliveries/{id}/retry: once more, now, whatever happened before; the schedule restarts.
export function retryByHand(now: Date): { state: 'pending'; failed_attempts: number; next_attempt_at: Date } {
  return { state: 'pending', failed_attempts: 0, next_attempt_at: now };
}
