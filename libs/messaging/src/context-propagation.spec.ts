import { RPC_ENDPOINTS } from '@vj/contracts';
import { addToLogContext, captureContext, currentLogContext, registerPropagation, runInStoredContext, runWithLogContext } from '@vj/observability';
import { headers as natsHeaders, type Msg, type MsgHdrs, type NatsConnection } from 'nats';
import { JetStreamPublisher } from './jetstream/jetstream-publisher';
import { decodeJson, encodeJson } from './json-codec';
import { JobsRpcClient } from './rpc/rpc-client';
import { serveRpc } from './rpc/serve-rpc';

interface Sent {
  subject: string;
  headers?: MsgHdrs;
  msgID?: string;
}

// Just enough of a NATS connection to see what a publish or a request sends.
function fakeConnection(reply: unknown = { ok: true, data: null }) {
  const sent: Sent[] = [];
  const nc = {
    jetstream: () => ({
      publish: async (subject: string, _data: Uint8Array, options: { headers?: MsgHdrs; msgID?: string }) => {
        sent.push({ subject, headers: options.headers, msgID: options.msgID });
        return { seq: 1 };
      },
    }),
    // A request is a publish with a reply subject, answered on the reply inbox's subscription.
    subscribe: (_subject: string, options: { callback: (error: Error | null, msg: Partial<Msg>) => void }) => {
      answer = options.callback;
      return { closed: new Promise(() => undefined), isClosed: () => false };
    },
    publish: (subject: string, _data: Uint8Array, options: { reply: string; headers?: MsgHdrs }) => {
      sent.push({ subject, headers: options.headers });
      setImmediate(() => answer(null, { subject: options.reply, data: encodeJson(reply) }));
    },
  };
  let answer: (error: Error | null, msg: Partial<Msg>) => void = () => undefined;
  return { nc: nc as unknown as NatsConnection, sent };
}

describe('request context over NATS headers', () => {
  beforeAll(() => registerPropagation());

  it('a JetStream publish carries the request id and the job and account of its payload, with its msgId', async () => {
    const { nc, sent } = fakeConnection();
    await runWithLogContext({ request_id: 'req-1' }, () => new JetStreamPublisher(nc).publish('vj.work.v1.clean-audio-video', { job_id: 'job-1', account_id: 'acc-1' }, { msgId: 'm-1' }));
    expect(sent[0].msgID).toBe('m-1');
    expect(sent[0].headers?.get('x-request-id')).toBe('req-1');
    expect(sent[0].headers?.get('x-job-id')).toBe('job-1');
    expect(sent[0].headers?.get('x-account-id')).toBe('acc-1');
  });

  it("a row published by an outbox relay carries its writer's request, not the one that woke the relay", async () => {
    const { nc, sent } = fakeConnection();
    const stored = runWithLogContext({ request_id: 'req-writer' }, () => captureContext());
    await runWithLogContext({ request_id: 'req-waker' }, () =>
      runInStoredContext(stored, () => new JetStreamPublisher(nc).publish('vj.events.job.v1.created', { job_id: 'job-2' }, { msgId: 'm-2' })),
    );
    expect(sent[0].headers?.get('x-request-id')).toBe('req-writer');
    expect(sent[0].headers?.get('x-job-id')).toBe('job-2');
  });

  it('an RPC request carries the request id, and a reply naming a job adds it to the caller context', async () => {
    const { nc, sent } = fakeConnection({ ok: true, data: { job: { job_id: 'job-3', account_id: 'acc-3' }, replayed: false } });
    const context = await runWithLogContext({ request_id: 'req-3' }, async () => {
      await new JobsRpcClient(nc).call('create', { version: 1, account_id: 'acc-3' } as never);
      return { ...currentLogContext() };
    });
    expect(sent[0].headers?.get('x-request-id')).toBe('req-3');
    expect(sent[0].headers?.get('x-account-id')).toBe('acc-3');
    expect(context).toEqual({ request_id: 'req-3', job_id: 'job-3', account_id: 'acc-3' });
  });

  it('serveRpc answers in the context the request carries', async () => {
    let callback: ((error: Error | null, msg: Msg) => void) | undefined;
    const nc = { subscribe: (_subject: string, options: { callback: typeof callback }) => ((callback = callback ?? options.callback), { isClosed: () => true }) };
    const seen: unknown[] = [];
    const handler = async () => {
      seen.push({ ...currentLogContext() });
      addToLogContext({ job_id: 'late' });
      return { ok: 1 };
    };
    serveRpc(nc as unknown as NatsConnection, RPC_ENDPOINTS.jobs, Object.fromEntries(RPC_ENDPOINTS.jobs.methods.map((m) => [m, handler])) as never);
    const headers = natsHeaders();
    headers.set('x-request-id', 'req-4');
    const replied = new Promise<unknown>((resolve) =>
      callback?.(null, { data: encodeJson({ version: 1, account_id: 'acc-4', job_id: 'job-4' }), headers, respond: (data: Uint8Array) => resolve(decodeJson(data)) } as unknown as Msg),
    );
    expect(await replied).toEqual({ ok: true, data: { ok: 1 } });
    expect(seen).toEqual([{ request_id: 'req-4', job_id: 'job-4', account_id: 'acc-4' }]);
    // The handler's context ended with it.
    expect(currentLogContext()).toEqual({});
  });
});
