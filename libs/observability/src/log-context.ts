import { AsyncLocalStorage } from 'node:async_hooks';

// What every log line of a piece of work carries: the HTTP request that started it, the job and the
// account it is about. Kept in AsyncLocalStorage, so no call site passes it along.
export interface LogContext {
  request_id?: string;
  job_id?: string;
  account_id?: string;
}

export const LOG_CONTEXT_FIELDS = ['request_id', 'job_id', 'account_id'] as const;

const storage = new AsyncLocalStorage<LogContext>();

// The context of the work running now; an empty object outside any.
export function currentLogContext(): LogContext {
  return storage.getStore() ?? {};
}

// Runs `work` with `context` as the current context. The object itself is the store: fields added to
// it later (addToLogContext) show in every log line of the same work.
export function runWithLogContext<T>(context: LogContext, work: () => T): T {
  return storage.run(context, work);
}

// Adds fields to the current context (a job's id once it is known); nothing happens outside one.
export function addToLogContext(fields: LogContext): void {
  const store = storage.getStore();
  if (!store) return;
  for (const name of LOG_CONTEXT_FIELDS) if (fields[name] && !store[name]) store[name] = fields[name];
}

// The job and account a payload names: every job message and most RPC requests carry both. A reply
// naming one job (create, get) carries it as `job`.
export function logContextOf(payload: unknown): LogContext {
  if (typeof payload !== 'object' || payload === null) return {};
  const record = payload as Record<string, unknown>;
  const job = typeof record.job === 'object' && record.job !== null ? (record.job as Record<string, unknown>) : undefined;
  const fields: LogContext = {};
  const jobId = record.job_id ?? job?.job_id;
  const accountId = record.account_id ?? job?.account_id;
  if (typeof jobId === 'string') fields.job_id = jobId;
  if (typeof accountId === 'string') fields.account_id = accountId;
  return fields;
}

// Only the fields that are set, for a log line or a header set.
export function definedFields(context: LogContext): LogContext {
  const fields: LogContext = {};
  for (const name of LOG_CONTEXT_FIELDS) if (context[name]) fields[name] = context[name];
  return fields;
}
