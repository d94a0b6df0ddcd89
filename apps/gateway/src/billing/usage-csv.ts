import type { UsageReportV1 } from '@vj/contracts';

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

// The usage report for spreadsheets: a header named after group_by, one line per row, then the totals.
// Keys are UTC days or job types, never commas or quotes, so no field needs quoting.
export function usageCsv(report: UsageReportV1): string {
  const { jobs, billed_seconds, credits } = report.totals;
  const lines = [
    `${report.group_by},jobs,billed_seconds,credits`,
    ...report.rows.map((row) => `${row.key},${row.jobs},${row.billed_seconds},${row.credits}`),
    `total,${jobs},${billed_seconds},${credits}`,
  ];
  return `${lines.join('\n')}\n`;
}
