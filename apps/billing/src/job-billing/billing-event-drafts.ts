import { subjects, type BillingEventKind, type BillingEventPayloads } from '@vj/contracts';
import type { JobBilling } from './job-billing';
import { stableEventId } from './stable-event-id';

export interface BillingEventDraft<K extends BillingEventKind = BillingEventKind> {
  subject: string;
  msgId: string;
  payload: BillingEventPayloads[K];
}

// The event a job's billing row stands for, rebuilt from the row alone: a handler that committed but
// could not publish publishes the very same event on redelivery.
export function billingEvent<K extends BillingEventKind>(kind: K, row: JobBilling): BillingEventDraft<K> {
  const at = (kind === 'hold_placed' || kind === 'hold_rejected' ? row.decided_at : row.settled_at) ?? new Date(0);
  const base = {
    version: 1 as const,
    event_id: stableEventId(row.job_id, kind),
    occurred_at: at.toISOString(),
    job_id: row.job_id,
    account_id: row.account_id,
    job_type: row.job_type,
  };
  const payloads: { [P in BillingEventKind]: () => BillingEventPayloads[P] } = {
    hold_placed: () => ({ ...base, credits_held: row.credits_held ?? 0, price_version: row.price_version ?? 0 }),
    hold_rejected: () => ({ ...base, credits_required: row.credits_estimated ?? 0, credits_available: row.credits_available ?? 0 }),
    charge_captured: () => ({
      ...base,
      credits_charged: row.credits_charged ?? 0,
      credits_priced: row.credits_priced ?? 0,
      credits_released: row.credits_held ?? 0,
      billed_seconds: row.billed_seconds ?? 0,
      price_version: row.price_version ?? 0,
    }),
    hold_released: () => ({ ...base, credits_released: row.credits_held ?? 0 }),
  };
  return { subject: subjects.billingEvent(kind), msgId: `${row.job_id}.${kind}`, payload: payloads[kind]() as BillingEventPayloads[K] };
}
