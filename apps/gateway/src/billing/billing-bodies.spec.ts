import type { UsageReportV1 } from '@vj/contracts';
import { schemaViolations } from '@vj/http-contracts';
import { renderBalance, renderEstimate, renderLedgerPage, renderUsageReport } from './billing-bodies';
import { usageCsv } from './usage-csv';

const ACCOUNT = '0b8f3c1e-6a2d-4f4e-9c1b-2d3e4f5a6b7c';

function report(group_by: UsageReportV1['group_by'], keys: string[]): UsageReportV1 {
  return {
    account_id: ACCOUNT,
    from: '2025-01-01T00:00:00.000Z',
    to: '2025-02-01T00:00:00.000Z',
    group_by,
    rows: keys.map((key, i) => ({ key, jobs: i + 1, billed_seconds: 30 * (i + 1), credits: 60 * (i + 1) })),
    totals: { jobs: 3, billed_seconds: 90, credits: 180 },
  };
}

describe('billing bodies', () => {
  it('renders an estimate without its price version', () => {
    const body = renderEstimate({ credits_estimated: 26, duration_seconds: 12.4, basis: 'probed_duration', price_version: 3 });
    expect(body).toEqual({ credits_estimated: 26, duration_seconds: 12.4, basis: 'probed_duration' });
    expect(schemaViolations('Estimate', body)).toEqual([]);
  });

  it('keeps only the public fields of a reply billing has extended', () => {
    const balance = { account_id: ACCOUNT, balance: 10, held: 4, available: 6, currency: 'credits' };
    expect(renderBalance(balance)).toEqual({ account_id: ACCOUNT, balance: 10, held: 4, available: 6 });
    const entry = {
      entry_id: '1c9d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
      kind: 'grant' as const,
      credits: 500,
      job_id: null,
      job_type: null,
      balance_after: 500,
      held_after: 0,
      created_at: '2025-01-01T00:00:00.000Z',
      idempotency_key: 'secret-ish',
    };
    const page = renderLedgerPage({ entries: [entry], next_cursor: null });
    expect(schemaViolations('LedgerPage', page)).toEqual([]);
    expect(page.data[0]).not.toHaveProperty('idempotency_key');
  });

  it.each([
    ['day', ['2025-01-01', '2025-01-02']],
    ['job_type', ['clean-audio-video', 'video-background-removal']],
  ] as const)('names the row key after group_by=%s in JSON', (groupBy, keys) => {
    const body = renderUsageReport(report(groupBy, [...keys]));
    expect(schemaViolations('UsageReport', body)).toEqual([]);
    expect(body.rows[0]).toEqual({ [groupBy]: keys[0], jobs: 1, billed_seconds: 30, credits: 60 });
  });

  it('writes the CSV header after group_by, one line per row and a total line', () => {
    expect(usageCsv(report('day', ['2025-01-01', '2025-01-02']))).toBe(
      ['day,jobs,billed_seconds,credits', '2025-01-01,1,30,60', '2025-01-02,2,60,120', 'total,3,90,180', ''].join('\n'),
    );
    expect(usageCsv(report('job_type', [])).split('\n')).toEqual(['job_type,jobs,billed_seconds,credits', 'total,3,90,180', '']);
  });
});
