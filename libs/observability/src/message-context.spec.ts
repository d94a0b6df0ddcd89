import { context, trace, TraceFlags } from '@opentelemetry/api';
import { headers as natsHeaders } from 'nats';
import { currentLogContext, runWithLogContext } from './log-context';
import { incomingContext, outgoingHeaders, runDetached, runInMessageContext, SpanKind } from './message-context';
import { registerPropagation } from './tracing';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN_ID = '00f067aa0ba902b7';

// A remote span as the active one, the way an instrumented HTTP request or a handled message leaves it.
function inTrace<T>(work: () => T): T {
  const spanContext = { traceId: TRACE_ID, spanId: SPAN_ID, traceFlags: TraceFlags.SAMPLED, isRemote: true };
  return context.with(trace.setSpanContext(context.active(), spanContext), work);
}

describe('context over NATS headers', () => {
  beforeAll(() => registerPropagation());

  it('puts the request id, the payload job and account and the trace context in the headers of a message', () => {
    const headers = runWithLogContext({ request_id: 'req-1' }, () => inTrace(() => outgoingHeaders({ job_id: 'job-1', account_id: 'acc-1' })));
    expect(headers.get('x-request-id')).toBe('req-1');
    expect(headers.get('x-job-id')).toBe('job-1');
    expect(headers.get('x-account-id')).toBe('acc-1');
    expect(headers.get('traceparent')).toBe(`00-${TRACE_ID}-${SPAN_ID}-01`);
  });

  it("names the payload's own job, not the one of the work that sends it", () => {
    const headers = runWithLogContext({ request_id: 'req-1', job_id: 'other' }, () => outgoingHeaders({ job_id: 'job-2' }));
    expect(headers.get('x-job-id')).toBe('job-2');
  });

  it('sends no context headers outside any context', () => {
    const headers = outgoingHeaders({ version: 1 });
    expect(headers.get('x-request-id')).toBe('');
    expect(headers.get('traceparent')).toBe('');
  });

  it('detached work (an outbox relay woken by one request) carries no request and no trace', () => {
    const headers = runWithLogContext({ request_id: 'req-1' }, () => inTrace(() => runDetached(() => outgoingHeaders({ job_id: 'job-3' }))));
    expect(headers.get('x-request-id')).toBe('');
    expect(headers.get('traceparent')).toBe('');
    expect(headers.get('x-job-id')).toBe('job-3');
  });

  it('restores the log context and continues the trace of an incoming message around its handler', async () => {
    const headers = runWithLogContext({ request_id: 'req-9' }, () => inTrace(() => outgoingHeaders({ job_id: 'job-9', account_id: 'acc-9' })));
    const seen = await runInMessageContext(headers, { name: 'test process', kind: SpanKind.CONSUMER }, async () => ({
      log: { ...currentLogContext() },
      traceId: trace.getSpanContext(context.active())?.traceId,
    }));
    expect(seen.log).toEqual({ request_id: 'req-9', job_id: 'job-9', account_id: 'acc-9' });
    expect(seen.traceId).toBe(TRACE_ID);
    // Nothing leaks out of the handler's context.
    expect(currentLogContext()).toEqual({});
  });

  it('fills what the headers lack from the payload (a message published before headers existed)', async () => {
    const seen = await runInMessageContext(undefined, { name: 'test', kind: SpanKind.SERVER }, async () => ({ ...currentLogContext() }), { job_id: 'job-5', account_id: 'acc-5' });
    expect(seen).toEqual({ job_id: 'job-5', account_id: 'acc-5' });
    const fromHeaders = natsHeaders();
    fromHeaders.set('x-job-id', 'job-6');
    expect(incomingContext(fromHeaders).log).toEqual({ job_id: 'job-6' });
  });
});
