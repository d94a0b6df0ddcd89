import { ApiError } from '../http/api-error';

const DAY_MS = 24 * 3600 * 1000;
export const USAGE_DEFAULT_DAYS = 30;
// A year, leap day included: enough for any annual report, small enough for billing to sum quickly.
export const USAGE_MAX_DAYS = 366;

export interface UsageRange {
  from: Date;
  to: Date;
}

// The report's window, from inclusive to exclusive: to defaults to now, from to 30 days before to.
export function usageRange(query: { from?: Date; to?: Date }, now: Date): UsageRange {
  const to = query.to ?? now;
  const from = query.from ?? new Date(to.getTime() - USAGE_DEFAULT_DAYS * DAY_MS);
  if (from.getTime() >= to.getTime()) throw ApiError.invalidField('from', 'from must be before to');
  if (to.getTime() - from.getTime() > USAGE_MAX_DAYS * DAY_MS) {
    throw ApiError.invalidField('from', `from and to must be at most ${USAGE_MAX_DAYS} days apart`);
  }
  return { from, to };
}
