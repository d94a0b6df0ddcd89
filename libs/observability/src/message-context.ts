import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type TextMapGetter, type TextMapSetter } from '@opentelemetry/api';
import { headers as natsHeaders, type MsgHdrs } from 'nats';
import { currentLogContext, definedFields, LOG_CONTEXT_FIELDS, logContextOf, runWithLogContext, type LogContext } from './log-context';

// NATS header of each log context field; `traceparent` and `tracestate` (W3C) come from OpenTelemetry.
export const CONTEXT_HEADERS: Record<keyof LogContext, string> = {
  request_id: 'x-request-id',
  job_id: 'x-job-id',
  account_id: 'x-account-id',
};

const tracer = trace.getTracer('@vj/messaging');

const setter: TextMapSetter<MsgHdrs> = { set: (carrier, key, value) => carrier.set(key, value) };
const getter: TextMapGetter<MsgHdrs | undefined> = {
  get: (carrier, key) => carrier?.get(key) || undefined,
  keys: (carrier) => (carrier ? carrier.keys() : []),
};

// The headers of an outgoing message: the current context, the job and account its payload names (they
// win: a message is about its own job), and the active span as `traceparent`.
export function outgoingHeaders(payload: unknown, into: MsgHdrs = natsHeaders()): MsgHdrs {
  const fields = definedFields({ ...currentLogContext(), ...logContextOf(payload) });
  for (const name of LOG_CONTEXT_FIELDS) {
    const value = fields[name];
    if (value) into.set(CONTEXT_HEADERS[name], value);
  }
  propagation.inject(context.active(), into, setter);
  return into;
}

// The log context and the trace context an incoming message carries.
export function incomingContext(headers: MsgHdrs | undefined): { log: LogContext; trace: Context } {
  const log: LogContext = {};
  for (const name of LOG_CONTEXT_FIELDS) {
    const value = headers?.get(CONTEXT_HEADERS[name]);
    if (value) log[name] = value;
  }
  return { log, trace: propagation.extract(ROOT_CONTEXT, headers, getter) };
}

export interface SpanOptions {
  name: string;
  kind: SpanKind;
  attributes?: Attributes;
}

// Handles an incoming message in the context it carries: its log fields (plus `extra`, which fill what
// the headers lack) and a span that continues its trace.
export function runInMessageContext<T>(headers: MsgHdrs | undefined, span: SpanOptions, work: (span: Span) => Promise<T>, extra: LogContext = {}): Promise<T> {
  const incoming = incomingContext(headers);
  const log = { ...definedFields(extra), ...incoming.log };
  return runWithLogContext(log, () => inSpan(span, work, incoming.trace));
}

// Runs `work` in a new active span (a child of `parent`, else of the active one), ended when it settles;
// a rejection marks the span failed. With no tracing SDK registered this costs next to nothing.
export function inSpan<T>(options: SpanOptions, work: (span: Span) => Promise<T>, parent: Context = context.active()): Promise<T> {
  return tracer.startActiveSpan(options.name, { kind: options.kind, attributes: options.attributes }, parent, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      markFailed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

// Marks the active span failed: for a handler whose error is settled (retried, dead-lettered), not thrown.
export function markActiveSpanFailed(error: unknown): void {
  const span = trace.getActiveSpan();
  if (span) markFailed(span, error);
}

export function markFailed(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

// The context to store with a message published later (an outbox row): the log fields and the trace
// context as header name -> value, restored by runInStoredContext when the row is published.
export type StoredContext = Record<string, string>;

export function captureContext(): StoredContext {
  const stored: StoredContext = {};
  const fields = definedFields(currentLogContext());
  for (const name of LOG_CONTEXT_FIELDS) {
    const value = fields[name];
    if (value) stored[CONTEXT_HEADERS[name]] = value;
  }
  propagation.inject(context.active(), stored);
  return stored;
}

// Runs `work` in exactly the stored context (nothing of the caller's): a relay publishing a row written
// by one request carries that request's id and trace, never those of the request that woke the relay.
export function runInStoredContext<T>(stored: StoredContext | null | undefined, work: () => T): T {
  const log: LogContext = {};
  for (const name of LOG_CONTEXT_FIELDS) {
    const value = stored?.[CONTEXT_HEADERS[name]];
    if (value) log[name] = value;
  }
  return runWithLogContext(log, () => context.with(propagation.extract(ROOT_CONTEXT, stored ?? {}), work));
}

// Work that serves many requests at once (an outbox relay publishing rows several requests wrote) must
// not carry the one request that happened to wake it: no log fields, no trace.
export function runDetached<T>(work: () => T): T {
  return runWithLogContext({}, () => context.with(ROOT_CONTEXT, work));
}

export { SpanKind };
