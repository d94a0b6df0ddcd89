// When a webhook delivery is tried again (decision 0032). The schedule is a list of delays after each
// failed attempt (WEBHOOK_RETRY_SCHEDULE); once it is spent the delivery is given up. Each delay is
// stretched by up to `jitter` (never shortened), so receivers that fail together are not retried
// together, and the whole schedule lasts at least its sum.

// Growing delays (the schedule Svix publishes): 7 retries over 27 h 35 min, so a receiver down for a
// day still gets the event.
export const DEFAULT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';
const JITTER = 0.2;
// A Retry-After past this is taken as this: a receiver cannot park a delivery for ever.
const MAX_RETRY_AFTER_MS = 24 * 3600_000;

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

// "10s,2m,1h" -> [10000, 120000, 3600000]; throws on anything else, so a typo fails the boot.
export function parseRetrySchedule(raw: string): number[] {
  const delays = raw.split(',').map((part) => part.trim()).filter(Boolean).map((part) => {
    const match = /^(\d+)(ms|s|m|h|d)$/.exec(part);
    if (!match) throw new Error(`"${part}" is not a delay such as 30s, 5m or 2h`);
    return Number(match[1]) * UNITS[match[2]];
  });
  if (delays.length === 0) throw new Error('the retry schedule names no delay');
  return delays;
}

export type AttemptVerdict =
  // 2xx: done.
  | { kind: 'delivered' }
  // 410 Gone: the receiver asks never to be called again; the endpoint is disabled.
  | { kind: 'gone' }
  // Anything else: another attempt, no earlier than retryAfterMs when the receiver said so (429, 503).
  | { kind: 'failed'; retryAfterMs?: number };

export function verdictOf(status: number | null, retryAfterHeader?: string | null, now = Date.now()): AttemptVerdict {
  if (status !== null && status >= 200 && status < 300) return { kind: 'delivered' };
  if (status === 410) return { kind: 'gone' };
  const retryAfterMs = status === 429 || status === 503 ? parseRetryAfter(retryAfterHeader, now) : undefined;
  return retryAfterMs === undefined ? { kind: 'failed' } : { kind: 'failed', retryAfterMs };
}

// Retry-After is seconds or an HTTP date (RFC 9110 10.2.3).
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  const ms = /^\d+$/.test(trimmed) ? Number(trimmed) * 1000 : Date.parse(trimmed) - now;
  if (!Number.isFinite(ms)) return undefined;
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

// The time of the next attempt after `failedAttempts` failures, or null once the schedule is spent.
export function nextAttemptAt(schedule: readonly number[], failedAttempts: number, verdict: Extract<AttemptVerdict, { kind: 'failed' }>, now: number, random: () => number = Math.random): Date | null {
  const delay = schedule[failedAttempts - 1];
  if (delay === undefined) return null;
  const stretched = delay * (1 + JITTER * random());
  return new Date(now + Math.max(stretched, verdict.retryAfterMs ?? 0));
}
