// Whether an error means PostgreSQL was out of reach (restarting, refusing connections, a connection
// cut), not that the statement or its data were wrong: such a failure is ours and passes, so callers
// wait or answer "unavailable" (503) instead of failing a job or blaming the request. TypeORM wraps a
// statement's error (driverError); node-postgres gives SQLSTATEs in `code`, sockets give errno names,
// and a connection ended under a query gives only its message.
const OUTAGE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
const OUTAGE_MESSAGES = [/connection terminated/i, /timeout exceeded when trying to connect/i, /not queryable/i];

export function isDatabaseOutage(error: unknown): boolean {
  for (let cause = error, depth = 0; typeof cause === 'object' && cause !== null && depth < 3; depth++) {
    const { code, message, syscall } = cause as { code?: unknown; message?: unknown; syscall?: unknown };
    if (typeof code === 'string' && (code.startsWith('08') || OUTAGE_SQLSTATES.has(code) || SOCKET_CODES.has(code))) return true;
    // A server on a Unix socket that is not running has no socket file to connect to.
    if (code === 'ENOENT' && syscall === 'connect') return true;
    if (typeof message === 'string' && OUTAGE_MESSAGES.some((pattern) => pattern.test(message))) return true;
    cause = (cause as { driverError?: unknown }).driverError;
  }
  return false;
}
