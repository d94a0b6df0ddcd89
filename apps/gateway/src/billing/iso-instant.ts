// An ISO 8601 date (2025-01-31, midnight UTC) or date-time (2025-01-31T12:00, seconds and fraction
// optional, then Z or +hh:mm; none is UTC, like the report's days). Null for anything else, including
// dates that do not exist (2025-02-30).
const PATTERN = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})?)?$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function parseIsoInstant(value: string): Date | null {
  const match = PATTERN.exec(value);
  if (!match) return null;
  const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '', zone = 'Z'] = match;
  const [y, mo, d, h, mi, s] = [year, month, day, hour, minute, second].map(Number);
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 59) return null;
  const millis = fraction.padEnd(3, '0').slice(0, 3);
  const instant = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}.${millis}${zone}`);
  return Number.isNaN(instant.getTime()) ? null : instant;
}
