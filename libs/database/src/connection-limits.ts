// What every service's DataSource sets on its PostgreSQL connections (decision 0065), so a database
// that stops answering is noticed instead of waited on for ever:
// - connectTimeoutMS: a wait for a pooled connection (or a new one) that lasts 10 s fails, as an outage
//   the caller waits out or answers 503 (isDatabaseOutage), where it queued without end;
// - keepAlive: a server gone without closing its sockets is found by TCP, not after the kernel's
//   retransmissions (about 15 minutes);
// - idle_in_transaction_session_timeout: a transaction left open and idle for a minute is ended by the
//   server, and its locks with it.
// No statement_timeout: the services also run their migrations at boot, whose statements may be long.
export const CONNECTION_LIMITS = {
  connectTimeoutMS: 10_000,
  extra: { keepAlive: true, idle_in_transaction_session_timeout: 60_000 },
} as const;
