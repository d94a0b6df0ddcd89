import type { BillingEventKind, CreditEstimateV1, JobOptionsByType, JobType, LedgerEntryKind, Price } from '@vj/contracts';
import type { JobBilling } from './job-billing';

// A job's billing, as a pure function of its row, the account's available credits and what happened
// (decisions 0015, 0017, 0023). The store locks the row and the account, asks decide(), then writes
// what it returns; the event published is rebuilt from the row, so a redelivery republishes it as it was.
//
//   open --hold--> held | rejected      open --release--> closed (a late created event holds nothing)
//   held --extend--> held (a larger hold, or none when the account cannot cover it)
//   held --charge--> charged            held --release--> released
//   open | rejected --charge--> charged (a job billing never held for: priced with the current list)

export type JobBillingRow = Pick<JobBilling, 'job_id' | 'state' | 'credits_held' | 'credits_estimated'>;

export type BillingCommand =
  // The job's created event, with its quote (or the maximum, for a job created before billing).
  | { kind: 'hold'; estimate: CreditEstimateV1; options: JobOptionsByType[JobType] }
  // The job completed: the price of what was processed, at the list the service chose.
  | { kind: 'charge'; priced: Price; priceVersion: number }
  // The job failed or was cancelled.
  | { kind: 'release' }
  // A worker measured the fetched input before processing it: the price of that duration.
  | { kind: 'extend'; priced: Price };

export interface EntryToAppend {
  kind: LedgerEntryKind;
  credits: number;
  // Unique per ledger: a redelivered decision never writes its entries twice.
  idempotencyKey: string;
  billed_seconds?: number;
  price_version?: number;
}

export interface BillingDecision {
  // Row columns to set (null: the row stays as it is).
  change: Partial<JobBilling> | null;
  entries: EntryToAppend[];
  // The billing event the row now stands for, if any.
  publish: BillingEventKind | null;
  // extend only: whether the hold covers the measured duration now.
  covered?: boolean;
  // extend on a job that holds nothing (it ended meanwhile): the worker must not go on.
  conflict?: string;
}

const nothing: BillingDecision = { change: null, entries: [], publish: null };

export function decide(row: JobBillingRow, command: BillingCommand, available: number, now: Date): BillingDecision {
  switch (command.kind) {
    case 'hold':
      return hold(row, command, available, now);
    case 'charge':
      return charge(row, command, available, now);
    case 'release':
      return release(row, now);
    case 'extend':
      return extend(row, command.priced, available);
  }
}

function hold(row: JobBillingRow, command: Extract<BillingCommand, { kind: 'hold' }>, available: number, now: Date): BillingDecision {
  if (row.credits_held !== null) return { ...nothing, publish: 'hold_placed' };
  if (row.state === 'rejected') return { ...nothing, publish: 'hold_rejected' };
  if (row.state !== 'open') return nothing;
  const credits = command.estimate.credits_estimated;
  const decided = { options: command.options, price_version: command.estimate.price_version, credits_estimated: credits, decided_at: now };
  if (available < credits) return { change: { ...decided, state: 'rejected', credits_available: available }, entries: [], publish: 'hold_rejected' };
  return {
    change: { ...decided, state: 'held', credits_held: credits },
    entries: [{ kind: 'hold', credits, idempotencyKey: `${row.job_id}:hold` }],
    publish: 'hold_placed',
  };
}

// The price of what was processed, at most what the hold and the available balance cover together
// (README "Charge rule"); the hold is released in the same transaction.
function charge(row: JobBillingRow, command: Extract<BillingCommand, { kind: 'charge' }>, available: number, now: Date): BillingDecision {
  if (row.state === 'charged') return { ...nothing, publish: 'charge_captured' };
  if (row.state === 'released' || row.state === 'closed') return nothing;
  const held = row.state === 'held' ? (row.credits_held ?? 0) : 0;
  const charged = Math.min(command.priced.credits, available + held);
  return {
    change: {
      state: 'charged',
      credits_held: held || null,
      price_version: command.priceVersion,
      credits_charged: charged,
      credits_priced: command.priced.credits,
      billed_seconds: command.priced.billed_seconds,
      settled_at: now,
    },
    entries: [
      { kind: 'release', credits: held, idempotencyKey: `${row.job_id}:release` },
      { kind: 'charge', credits: charged, idempotencyKey: `${row.job_id}:charge`, billed_seconds: command.priced.billed_seconds, price_version: command.priceVersion },
    ],
    publish: 'charge_captured',
  };
}

function release(row: JobBillingRow, now: Date): BillingDecision {
  if (row.state === 'released') return { ...nothing, publish: 'hold_released' };
  // Nothing held yet; a created event arriving later must not hold anything either.
  if (row.state === 'open') return { change: { state: 'closed', settled_at: now }, entries: [], publish: null };
  if (row.state !== 'held') return nothing;
  return {
    change: { state: 'released', settled_at: now },
    entries: [{ kind: 'release', credits: row.credits_held ?? 0, idempotencyKey: `${row.job_id}:release` }],
    publish: 'hold_released',
  };
}

// The hold grows to the price of the input actually fetched when the available credits cover the
// difference; the key names the new total, so a retried extension to the same price holds once.
function extend(row: JobBillingRow, priced: Price, available: number): BillingDecision {
  if (row.state !== 'held') return { ...nothing, conflict: `the job holds nothing (billing state ${row.state})` };
  const held = row.credits_held ?? 0;
  if (priced.credits <= held) return { ...nothing, covered: true };
  const more = priced.credits - held;
  if (more > available) return { ...nothing, covered: false };
  return {
    change: { credits_held: priced.credits },
    entries: [{ kind: 'hold', credits: more, idempotencyKey: `${row.job_id}:hold:${priced.credits}` }],
    publish: null,
    covered: true,
  };
}
