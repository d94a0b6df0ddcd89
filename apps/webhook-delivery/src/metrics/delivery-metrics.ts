import { counter, gauge, histogram, LATENCY_BUCKETS, type SqlRunner } from '@vj/observability';
import type { DeliveryOutcome } from '../domain/delivery-state-machine';

const attempts = () =>
  counter({ name: 'webhook_attempts_total', help: 'delivery attempts by what followed: delivered, failed (retried later), given_up', labelNames: ['outcome'] as const });
const attemptSeconds = () => histogram({ name: 'webhook_attempt_duration_seconds', help: "time of one attempt, the receiver's answer included", buckets: LATENCY_BUCKETS });
const deliveredSeconds = () =>
  histogram({
    name: 'webhook_delivery_latency_seconds',
    help: 'from the delivery being written (the event taken) to the receiver accepting it, retries included',
    buckets: [...LATENCY_BUCKETS, 30, 120, 600, 3600, 6 * 3600, 24 * 3600],
  });
const due = () => gauge({ name: 'webhook_deliveries_due', help: 'deliveries whose attempt time has come (a backlog here means receivers or this service are slow)' });
const waiting = () => gauge({ name: 'webhook_deliveries_retrying', help: 'deliveries waiting for their next attempt after a failure' });

export function observeAttempt(outcome: DeliveryOutcome, durationMs: number, createdAt: Date, now: Date): void {
  attempts().inc({ outcome: outcome.state });
  attemptSeconds().observe(durationMs / 1000);
  if (outcome.state === 'delivered') deliveredSeconds().observe(Math.max(0, now.getTime() - createdAt.getTime()) / 1000);
}

// The backlog for /metrics, from the partial index on next_attempt_at.
export function deliveryBacklogCollector(db: SqlRunner): () => Promise<void> {
  return async () => {
    const [row] = (await db.query(
      `SELECT count(*) FILTER (WHERE next_attempt_at <= now())::int AS due, count(*) FILTER (WHERE next_attempt_at > now())::int AS retrying
         FROM webhooks.delivery WHERE next_attempt_at IS NOT NULL`,
    )) as { due: number; retrying: number }[];
    due().set(row?.due ?? 0);
    waiting().set(row?.retrying ?? 0);
  };
}
