import type { JobOptionsByType, JobType } from '@vj/contracts';

// open: seen, nothing decided yet; held / rejected: the created event's decision; charged / released:
// the final event's; closed: final before any hold (a late created event then holds nothing).
export const JOB_BILLING_STATES = ['open', 'held', 'rejected', 'charged', 'released', 'closed'] as const;
export type JobBillingState = (typeof JOB_BILLING_STATES)[number];

// A job's billing as the state machine and its events know it; what is needed to republish a
// decision's event. The database row (database/job-billing.entity.ts) implements it.
export interface JobBilling {
  job_id: string;
  account_id: string;
  job_type: JobType;
  state: JobBillingState;
  // From the created event: the options price the charge (multipliers), the quote is what is held.
  options: JobOptionsByType[JobType] | null;
  price_version: number | null;
  credits_estimated: number | null;
  // Set only when a hold was placed.
  credits_held: number | null;
  // Rejections: what was available when the estimate did not fit.
  credits_available: number | null;
  credits_charged: number | null;
  credits_priced: number | null;
  billed_seconds: number | null;
  decided_at: Date | null;
  settled_at: Date | null;
}
