import type { VideoInputV1 } from '../job/job-input';
import type { JobType } from '../job/job-type';

// Billing's messages: its RPC catalogue (vj.rpc.billing.v1.*), its events (vj.events.billing.v1.*) and
// the render workers' duration probe (vj.rpc.media.v1.probe) that estimates start from.

// How the duration behind an estimate was found: probed from the input; or the job type's maximum,
// because the input states no duration that could be read (max_duration) or because no probe answered
// within its time limit, retried (max_duration_timed_out).
export const ESTIMATE_BASES = ['probed_duration', 'max_duration', 'max_duration_timed_out'] as const;
export type EstimateBasis = (typeof ESTIMATE_BASES)[number];

export interface CreditEstimateV1 {
  credits_estimated: number;
  duration_seconds: number;
  basis: EstimateBasis;
  // The price list the quote used; the charge at completion uses the same one.
  price_version: number;
}

export interface BalanceRequestV1 {
  version: 1;
  account_id: string;
}

export interface BalanceV1 {
  account_id: string;
  balance: number;
  held: number;
  available: number;
}

export const USAGE_GROUPS = ['day', 'job_type'] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];

export interface UsageRequestV1 {
  version: 1;
  account_id: string;
  // ISO 8601 instants; from inclusive, to exclusive.
  from: string;
  to: string;
  group_by: UsageGroup;
}

export interface UsageRowV1 {
  // A UTC day (YYYY-MM-DD) or a job type, after group_by.
  key: string;
  jobs: number;
  billed_seconds: number;
  credits: number;
}

export interface UsageReportV1 {
  account_id: string;
  from: string;
  to: string;
  group_by: UsageGroup;
  rows: UsageRowV1[];
  totals: { jobs: number; billed_seconds: number; credits: number };
}

export interface LedgerRequestV1 {
  version: 1;
  account_id: string;
  limit: number;
  cursor?: string;
}

export const LEDGER_ENTRY_KINDS = ['grant', 'hold', 'release', 'charge'] as const;
export type LedgerEntryKind = (typeof LEDGER_ENTRY_KINDS)[number];

// One append-only ledger row. grant adds to balance, charge takes from it; hold adds to held, release
// takes from it; available = balance - held.
export interface LedgerEntryV1 {
  entry_id: string;
  kind: LedgerEntryKind;
  credits: number;
  job_id: string | null;
  job_type: JobType | null;
  balance_after: number;
  held_after: number;
  created_at: string;
}

export interface LedgerPageV1 {
  entries: LedgerEntryV1[];
  next_cursor: string | null;
}

export interface GrantCreditsRequestV1 {
  version: 1;
  account_id: string;
  amount: number;
  // The same key grants once: a retried grant is not counted twice.
  idempotency_key: string;
}

export interface GrantCreditsReplyV1 {
  account_id: string;
  balance: number;
}

// vj.rpc.billing.v1.extend_hold: render worker -> billing, once the input is on the worker's disk and
// its duration measured, before any processing. Billing prices that duration at the job's quote price
// version and raises the hold to it when the account's available credits allow.
export interface ExtendHoldRequestV1 {
  version: 1;
  job_id: string;
  account_id: string;
  job_type: JobType;
  duration_seconds: number;
}

// covered: the hold now covers credits_required (it may have been there already). Otherwise nothing
// changed and the job must fail with insufficient_credits; credits_available is what the hold and the
// available balance add up to.
export interface ExtendHoldReplyV1 {
  covered: boolean;
  credits_required: number;
  credits_held: number;
  credits_available: number;
}

// vj.rpc.media.v1.probe: the input's duration, or null when it could not be read within the limit.
export interface ProbeInputRequestV1 {
  version: 1;
  input: VideoInputV1;
}

export interface ProbeInputReplyV1 {
  duration_seconds: number | null;
  // Set with a null duration when the worker's time limit passed first: another try may still tell
  // (absent from workers older than it: read as false).
  timed_out?: boolean;
}

// vj.events.billing.v1.*: billing -> any internal consumer. Nats-Msg-Id `<job_id>.<kind>`.
interface BillingEventBaseV1 {
  version: 1;
  event_id: string;
  occurred_at: string;
  job_id: string;
  account_id: string;
  job_type: JobType;
}

// The job's estimate is held: its work may start.
export interface HoldPlacedEventV1 extends BillingEventBaseV1 {
  credits_held: number;
  price_version: number;
}

// The available balance did not cover the estimate: the job must fail with insufficient_credits.
export interface HoldRejectedEventV1 extends BillingEventBaseV1 {
  credits_required: number;
  credits_available: number;
}

// The job completed and was charged; the hold is gone.
export interface ChargeCapturedEventV1 extends BillingEventBaseV1 {
  credits_charged: number;
  // The price of what was processed; more than credits_charged only when the account could not cover it.
  credits_priced: number;
  credits_released: number;
  billed_seconds: number;
  price_version: number;
}

// The job failed or was cancelled: its hold was released and nothing charged.
export interface HoldReleasedEventV1 extends BillingEventBaseV1 {
  credits_released: number;
}
