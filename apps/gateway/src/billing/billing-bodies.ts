import type { BalanceV1, CreditEstimateV1, LedgerEntryV1, LedgerPageV1, UsageGroup, UsageReportV1 } from '@vj/contracts';

// The public billing bodies (schemas Estimate, Balance, UsageReport, LedgerPage) made from billing's
// replies. Fields are picked one by one: billing may add reply fields (additive, same version) that the
// public schemas do not allow.

export interface EstimateBody {
  credits_estimated: number;
  duration_seconds: number;
  basis: CreditEstimateV1['basis'];
}

export type UsageRowBody = { [K in UsageGroup]?: string } & { jobs: number; billed_seconds: number; credits: number };

export interface UsageReportBody {
  account_id: string;
  from: string;
  to: string;
  group_by: UsageGroup;
  rows: UsageRowBody[];
  totals: { jobs: number; billed_seconds: number; credits: number };
}

export interface LedgerPageBody {
  data: LedgerEntryV1[];
  next_cursor: string | null;
}

// price_version stays inside: it ties the quote to the charge, callers have no use for it.
export function renderEstimate({ credits_estimated, duration_seconds, basis }: CreditEstimateV1): EstimateBody {
  return { credits_estimated, duration_seconds, basis };
}

export function renderBalance({ account_id, balance, held, available }: BalanceV1): BalanceV1 {
  return { account_id, balance, held, available };
}

// A row's key becomes the column group_by names: { day: "2025-01-31" } or { job_type: "clean-audio-video" }.
export function renderUsageReport(report: UsageReportV1): UsageReportBody {
  const { jobs, billed_seconds, credits } = report.totals;
  return {
    account_id: report.account_id,
    from: report.from,
    to: report.to,
    group_by: report.group_by,
    rows: report.rows.map((row) => ({ [report.group_by]: row.key, jobs: row.jobs, billed_seconds: row.billed_seconds, credits: row.credits })),
    totals: { jobs, billed_seconds, credits },
  };
}

export function renderLedgerPage(page: LedgerPageV1): LedgerPageBody {
  return {
    data: page.entries.map(({ entry_id, kind, credits, job_id, job_type, balance_after, held_after, created_at }) => ({
      entry_id,
      kind,
      credits,
      job_id,
      job_type,
      balance_after,
      held_after,
      created_at,
    })),
    next_cursor: page.next_cursor,
  };
}
