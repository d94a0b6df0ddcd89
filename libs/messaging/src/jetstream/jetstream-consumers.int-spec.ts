import { decodeJson } from '../json-codec';
import { CONSUMERS, STREAMS, subjects } from '@vj/contracts';
import { startNatsServer, waitFor, type LocalNatsServer } from '@vj/local-stack';
import { connect, type JetStreamManager, type NatsConnection } from 'nats';
import type { ConsumerSpec } from './consumer-spec';
import type { DeadLetter } from './dead-letter';
import { ensureConsumer } from './ensure-consumer';
import type { JetStreamContext } from './jetstream-context';
import { JetStreamPublisher } from './jetstream-publisher';
import { JetStreamConsumers } from './jetstream-consumers';
import { PermanentMessageError } from './permanent-message-error';
import { ensureStreams } from './streams';

const CLEAN = subjects.work('clean-audio-video');
const REMOVAL = subjects.work('video-background-removal');

function workSpec(overrides: Partial<ConsumerSpec> = {}): ConsumerSpec {
  return {
    stream: STREAMS.work,
    durable: CONSUMERS.renderWorker,
    filterSubject: subjects.workAll(),
    subjects: [CLEAN, REMOVAL],
    ackWaitMs: 1_000,
    maxDeliver: 3,
    concurrency: 2,
    backoffMs: [300, 300],
    maxProcessingMs: 20_000,
    ...overrides,
  };
}

type Handler = (payload: unknown, ctx: JetStreamContext) => unknown;

describe('JetStreamConsumers against nats-server', () => {
  let nats: LocalNatsServer;
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  let publisher: JetStreamPublisher;
  let server: JetStreamConsumers | undefined;
  let seq = 0;

  beforeAll(async () => {
    nats = await startNatsServer();
    nc = await connect({ servers: nats.url });
    jsm = await nc.jetstreamManager();
    publisher = new JetStreamPublisher(nc);
  });

  afterAll(async () => {
    await nc.close();
    await nats.stop();
  });

  // Fresh streams per test so consumers, sequences and dedup windows never leak between tests.
  beforeEach(async () => {
    for (const stream of Object.values(STREAMS)) await jsm.streams.delete(stream).catch(() => undefined);
    await ensureStreams(jsm);
  });

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  // What VJ_DEAD_LETTERS holds now, oldest first.
  async function keptDeadLetters(): Promise<unknown[]> {
    const { state } = await jsm.streams.info(STREAMS.deadLetters);
    const records = [];
    for (let s = state.first_seq; state.messages > 0 && s <= state.last_seq; s++) records.push(decodeJson((await jsm.streams.getMessage(STREAMS.deadLetters, { seq: s })).data));
    return records;
  }

  // The services with a database say which errors are its outages (isDatabaseOutage); here, refused connections.
  const isOutage = (error: unknown) => (error as { code?: unknown }).code === 'ECONNREFUSED';

  async function serve(spec: ConsumerSpec, handlers: Record<string, Handler>, deadLetters?: (d: DeadLetter) => unknown) {
    server = new JetStreamConsumers({
      connection: nc,
      consumers: [spec],
      handlers: Object.fromEntries(Object.entries(handlers).map(([subject, handler]) => [subject, async (payload: unknown, ctx: JetStreamContext) => void (await handler(payload, ctx))])),
      deadLetterHandlers: spec.deadLetters === false ? {} : { [spec.durable]: async (d: DeadLetter) => void deadLetters?.(d) },
      pullExpiresMs: 1_000,
      closeTimeoutMs: 2_000,
      isOutage,
    });
    await server.start();
  }

  const publish = (subject: string, payload: object) => publisher.publish(subject, payload, { msgId: `m-${++seq}` });
  const streamMessages = async () => (await jsm.streams.info(STREAMS.work)).state.messages;

  it('acks a message whose handler resolves, removing it from the work queue', async () => {
    const seen: unknown[] = [];
    await serve(workSpec(), { [CLEAN]: async (p) => seen.push(p), [REMOVAL]: async () => undefined });
    await publish(CLEAN, { job_id: 'a' });
    await waitFor('handled', async () => seen.length === 1 && (await streamMessages()) === 0);
    expect(seen).toEqual([{ job_id: 'a' }]);
  });

  it('naks a transient error and redelivers after the backoff with the next attempt number', async () => {
    const attempts: { attempt: number; at: number }[] = [];
    await serve(workSpec({ backoffMs: [600] }), {
      [CLEAN]: async (_p, ctx) => {
        attempts.push({ attempt: ctx.attempt, at: Date.now() });
        if (ctx.attempt === 1) throw new Error('transient');
      },
      [REMOVAL]: async () => undefined,
    });
    await publish(CLEAN, { job_id: 'b' });
    await waitFor('redelivered', async () => attempts.length === 2 && (await streamMessages()) === 0);
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2]);
    expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(550);
  });

  it("runs an ordered consumer's failing handler again in place, holding the messages behind it in stream order", async () => {
    const handled: string[] = [];
    const spec = workSpec({ ordered: true, concurrency: 1, maxAckPending: 1, maxDeliver: -1, backoffMs: [200] });
    await serve(spec, {
      [CLEAN]: async (p, ctx) => {
        const { job_id } = p as { job_id: string };
        handled.push(`${job_id}${ctx.attempt}`);
        if (job_id === 'a' && ctx.attempt < 3) throw new Error('not yet');
      },
      [REMOVAL]: async () => undefined,
    });
    await publish(CLEAN, { job_id: 'a' });
    await publish(CLEAN, { job_id: 'b' });
    await waitFor('both handled', async () => handled.includes('b1') && (await streamMessages()) === 0);
    expect(handled).toEqual(['a1', 'a2', 'a3', 'b1']);
  });

  it('acknowledges unseen a message on a subject it does not declare, when the spec says so', async () => {
    const seen: unknown[] = [];
    await serve(workSpec({ subjects: [CLEAN], skipUnknownSubjects: true }), { [CLEAN]: async (p) => seen.push(p) });
    await publish(REMOVAL, { job_id: 'newer kind' });
    await publish(CLEAN, { job_id: 'd' });
    await waitFor('handled', async () => seen.length === 1 && (await streamMessages()) === 0);
    expect(seen).toEqual([{ job_id: 'd' }]);
  });

  it('terminates a message out of deliveries without keeping a dead letter when the spec has none', async () => {
    let calls = 0;
    await serve(workSpec({ maxDeliver: 2, backoffMs: [100], deadLetters: false }), {
      [CLEAN]: async () => {
        calls++;
        throw new Error('always');
      },
      [REMOVAL]: async () => undefined,
    });
    await publish(CLEAN, { job_id: 'e' });
    await waitFor('settled', async () => calls === 2 && (await streamMessages()) === 0);
    expect(await keptDeadLetters()).toEqual([]);
  });

  it('hands every subject a wildcard subject matches to its one handler', async () => {
    const seen: string[] = [];
    await serve(workSpec({ subjects: [subjects.workAll()] }), { [subjects.workAll()]: async (_p, ctx) => void seen.push(ctx.subject) });
    await publish(CLEAN, { job_id: 'f' });
    await publish(REMOVAL, { job_id: 'g' });
    await waitFor('both handled', async () => seen.length === 2);
    expect(seen.sort()).toEqual([CLEAN, REMOVAL].sort());
  });

  it('terms a message on a permanent error without retrying or dead-lettering it', async () => {
    let calls = 0;
    const dead: DeadLetter[] = [];
    await serve(
      workSpec(),
      { [CLEAN]: async () => { calls++; throw new PermanentMessageError('unknown job'); }, [REMOVAL]: async () => undefined },
      (d) => dead.push(d),
    );
    await publish(CLEAN, { job_id: 'c' });
    await waitFor('handled', async () => calls === 1);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(calls).toBe(1);
    expect(dead).toEqual([]);
    expect(await streamMessages()).toBe(0);
  });

  it('calls the dead-letter handler on the last attempt, then terms the message', async () => {
    const attempts: number[] = [];
    const dead: DeadLetter[] = [];
    await serve(
      workSpec({ maxDeliver: 3, backoffMs: [100] }),
      { [CLEAN]: async (_p, ctx) => { attempts.push(ctx.attempt); throw new Error(`boom ${ctx.attempt}`); }, [REMOVAL]: async () => undefined },
      (d) => dead.push(d),
    );
    await publish(CLEAN, { job_id: 'd' });
    await waitFor('dead-lettered', async () => dead.length === 1);
    expect(attempts).toEqual([1, 2, 3]);
    expect(dead[0]).toMatchObject({ reason: 'last-attempt', deliveries: 3, subject: CLEAN, payload: { job_id: 'd' }, error: 'boom 3' });
    await new Promise((r) => setTimeout(r, 1_500));
    expect(attempts).toHaveLength(3);
    expect(dead).toHaveLength(1);
    expect(await streamMessages()).toBe(0);
    expect(await keptDeadLetters()).toEqual([
      expect.objectContaining({ version: 1, stream: STREAMS.work, consumer: CONSUMERS.renderWorker, subject: CLEAN, payload: { job_id: 'd' }, reason: 'last-attempt', error: 'boom 3' }),
    ]);
  });

  it('dead-letters a message that a crashed worker never settled, from the MAX_DELIVERIES advisory', async () => {
    const spec = workSpec({ maxDeliver: 1, ackWaitMs: 1_000 });
    await ensureConsumer(jsm, spec);
    await publish(REMOVAL, { job_id: 'e' });
    // The "crashed" worker takes the only delivery and never settles it.
    const taken = await nc.jetstream().consumers.get(spec.stream, spec.durable).then((c) => c.next({ expires: 2_000 }));
    expect(taken?.subject).toBe(REMOVAL);
    const dead: DeadLetter[] = [];
    const handled: unknown[] = [];
    await serve(spec, { [CLEAN]: async (p) => handled.push(p), [REMOVAL]: async (p) => handled.push(p) }, (d) => dead.push(d));
    await waitFor('advisory dead letter', async () => dead.length === 1, 10_000);
    expect(dead[0]).toMatchObject({ reason: 'max-deliveries', deliveries: 1, subject: REMOVAL, payload: { job_id: 'e' } });
    expect(handled).toEqual([]);
    await waitFor('deleted from the stream', async () => (await streamMessages()) === 0);
    expect(await keptDeadLetters()).toEqual([expect.objectContaining({ subject: REMOVAL, reason: 'max-deliveries', payload: { job_id: 'e' } })]);
  });

  it('keeps a message that is not JSON as an undecodable dead letter and terminates it, calling no handler', async () => {
    const handled: unknown[] = [];
    const dead: DeadLetter[] = [];
    await serve(workSpec(), { [CLEAN]: async (p) => handled.push(p), [REMOVAL]: async (p) => handled.push(p) }, (d) => dead.push(d));
    await nc.jetstream().publish(CLEAN, Uint8Array.from([...new TextEncoder().encode('{"job_id": '), 0xff]));
    await publish(CLEAN, { job_id: 'after' });
    await waitFor('kept and the next message handled', async () => handled.length === 1 && (await keptDeadLetters()).length === 1 && (await streamMessages()) === 0);
    expect(handled).toEqual([{ job_id: 'after' }]);
    expect(dead).toEqual([]);
    expect(await keptDeadLetters()).toEqual([
      expect.objectContaining({ stream: STREAMS.work, consumer: CONSUMERS.renderWorker, subject: CLEAN, payload: '{"job_id": \ufffd', deliveries: 1, reason: 'undecodable', error: expect.stringContaining('JSON') }),
    ]);
  });

  it('keeps an undecodable message that a crashed worker never settled, without calling the dead-letter handler', async () => {
    const spec = workSpec({ maxDeliver: 1, ackWaitMs: 1_000 });
    await ensureConsumer(jsm, spec);
    await nc.jetstream().publish(REMOVAL, new TextEncoder().encode('not json'));
    const taken = await nc.jetstream().consumers.get(spec.stream, spec.durable).then((c) => c.next({ expires: 2_000 }));
    expect(taken?.subject).toBe(REMOVAL);
    const dead: DeadLetter[] = [];
    await serve(spec, { [CLEAN]: async () => undefined, [REMOVAL]: async () => undefined }, (d) => dead.push(d));
    await waitFor('kept and deleted from the stream', async () => (await keptDeadLetters()).length === 1 && (await streamMessages()) === 0, 10_000);
    expect(await keptDeadLetters()).toEqual([expect.objectContaining({ subject: REMOVAL, reason: 'undecodable', payload: 'not json', deliveries: 1 })]);
    expect(dead).toEqual([]);
  });

  it('keeps a handler that runs longer than ack wait from being redelivered', async () => {
    const attempts: number[] = [];
    await serve(workSpec({ ackWaitMs: 1_000 }), {
      [CLEAN]: async (_p, ctx) => {
        attempts.push(ctx.attempt);
        await new Promise((r) => setTimeout(r, 3_000));
      },
      [REMOVAL]: async () => undefined,
    });
    await publish(CLEAN, { job_id: 'f' });
    await waitFor('acked', async () => attempts.length === 1 && (await streamMessages()) === 0, 10_000);
    await new Promise((r) => setTimeout(r, 1_200));
    expect(attempts).toEqual([1]);
  });

  it('stops keep-alives after maxProcessingMs so a hung handler is redelivered, and aborts its signal', async () => {
    const attempts: number[] = [];
    let aborted = false;
    await serve(workSpec({ ackWaitMs: 1_000, maxProcessingMs: 1_500 }), {
      [CLEAN]: async (_p, ctx) => {
        attempts.push(ctx.attempt);
        if (ctx.attempt === 1) await new Promise((r) => ctx.signal.addEventListener('abort', () => { aborted = true; setTimeout(r, 2_000); }));
      },
      [REMOVAL]: async () => undefined,
    });
    await publish(CLEAN, { job_id: 'g' });
    await waitFor('redelivered', async () => attempts.length === 2, 10_000);
    expect(aborted).toBe(true);
  });

  it('makes its consumer again when it is deleted under it, and its stream when that is gone, and goes on handling', async () => {
    const seen: unknown[] = [];
    await serve(workSpec(), { [CLEAN]: async (p) => seen.push(p), [REMOVAL]: async () => undefined });
    await publish(CLEAN, { job_id: 'before' });
    await waitFor('the first handled and acknowledged', async () => seen.length === 1 && (await streamMessages()) === 0);
    await jsm.consumers.delete(STREAMS.work, CONSUMERS.renderWorker);
    await publish(CLEAN, { job_id: 'consumer deleted' });
    await waitFor('handled on the consumer made again', async () => seen.length === 2 && (await streamMessages()) === 0, 15_000, 100);
    await jsm.streams.delete(STREAMS.work);
    await waitFor('the stream made again', async () => jsm.streams.info(STREAMS.work).then(() => true, () => false), 15_000, 100);
    await publish(CLEAN, { job_id: 'stream deleted' });
    await waitFor('handled on the stream made again', async () => seen.length === 3, 15_000, 100);
    expect(seen).toEqual([{ job_id: 'before' }, { job_id: 'consumer deleted' }, { job_id: 'stream deleted' }]);
  }, 60_000);

  it('runs a handler whose database is out of reach again in place, spending no delivery', async () => {
    const attempts: number[] = [];
    const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    await serve(workSpec(), {
      [CLEAN]: async (_p, ctx) => {
        attempts.push(ctx.attempt);
        if (attempts.length < 3) throw refused();
      },
      [REMOVAL]: async () => undefined,
    });
    await publish(CLEAN, { job_id: 'o' });
    await waitFor('handled once the database answers', async () => attempts.length === 3 && (await streamMessages()) === 0, 10_000, 50);
    expect(attempts).toEqual([1, 1, 1]);
  });

  it('refuses to start when a declared subject has no handler', async () => {
    await expect(serve(workSpec(), { [CLEAN]: async () => undefined })).rejects.toThrow(`no handler for "${REMOVAL}"`);
  });

  it('drops a second publish with the same msgId inside the duplicate window', async () => {
    const first = await publisher.publish(CLEAN, { job_id: 'h' }, { msgId: 'same' });
    const second = await publisher.publish(CLEAN, { job_id: 'h' }, { msgId: 'same' });
    expect(first.duplicate).toBe(false);
    expect(second.duplicate).toBe(true);
    expect(await streamMessages()).toBe(1);
  });

  it('refuses to start with a handler for a subject no consumer declares', async () => {
    await expect(serve(workSpec(), { [CLEAN]: async () => undefined, [REMOVAL]: async () => undefined, 'vj.elsewhere': async () => undefined })).rejects.toThrow(
      'handler for "vj.elsewhere" matches no declared consumer subject',
    );
  });
});
