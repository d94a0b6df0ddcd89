// Codes nats.js gives a publish that failed on the way to the stream, not because of the message: the
// request timed out, nobody answered (503: no responders, or JetStream temporarily unavailable while a
// stream elects a leader), or the connection was closed, draining or lost. Such a failure says nothing
// of the row, so it never counts towards parking it: a stream that is down for a while delays its rows,
// it does not lose them. Anything else (a payload over the limit, a permission refused, a message the
// stream rejects) fails again the same way and does count.
const OUTAGE_CODES = new Set(['TIMEOUT', '503', 'CONNECTION_CLOSED', 'CONNECTION_DRAINING', 'CONNECTION_REFUSED', 'CONNECTION_TIMEOUT', 'DISCONNECT']);

export function isPublishOutage(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && OUTAGE_CODES.has(code);
}
