import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONSUMERS, STREAMS, subjects, type DeadLetterRecordV1, type JobEventKind } from '@vj/contracts';
import { freePort, startNatsServer, waitFor, type LocalNatsServer } from '@vj/local-stack';
import { decodeJson, encodeJson, ensureStreams } from '@vj/messaging';
import { connect, type NatsConnection } from 'nats';
import { JobEventsConsumer, type JobEvent } from './job-events-consumer';

// The consumer library against a real nats-server: order, dedupe by event id, retries, and what it skips.
describe('JobEventsConsumer', () => {
  let nats: LocalNatsServer;
  let nc: NatsConnection;

  beforeAll(async () => {
    nats = await startNatsServer();
    nc = await connect({ servers: nats.url });
    await ensureStreams(nc);
  });

  afterAll(async () => {
    await nc?.drain();
    await nats?.stop();
  });

  const event = (kind: JobEventKind, jobId: string, eventId = randomUUID()) => ({
    version: 1,
    job_id: jobId,
    account_id: 'acct',
    job_type: 'clean-audio-video',
    event_id: eventId,
    occurred_at: new Date().toISOString(),
    ...(kind === 'created' && { options: {} }),
    ...(kind === 'failed' && { error: { code: 'invalid_file', message: 'x', details: null } }),
  });
  const publish = (subject: string, payload: unknown) => nc.jetstream().publish(subject, typeof payload === 'string' ? new TextEncoder().encode(payload) : encodeJson(payload), { msgID: randomUUID() });

  it('hands each event once, in stream order, retries a failing handler, and skips what it cannot read or does not know', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const repeated = event('created', b);
    await publish(subjects.jobEvent('created'), event('created', a));
    await publish(subjects.jobEvent('created'), repeated);
    // The same event again under another message id: past the stream's dedup, caught by event_id.
    await publish(subjects.jobEvent('created'), repeated);
    await publish('vj.events.job.v1.resumed', event('created', a));
    await publish(subjects.jobEvent('cancelled'), 'not json');
    await publish(subjects.jobEvent('failed'), event('failed', a));
    await publish(subjects.jobEvent('cancelled'), event('cancelled', b));

    const handled: string[] = [];
    let failedOnce = false;
    const consumer = new JobEventsConsumer(nc, {
      durable: CONSUMERS.jobCounts,
      backoffMs: [100],
      handle: async (e: JobEvent, context) => {
        if (e.kind === 'failed' && !failedOnce) {
          failedOnce = true;
          throw new Error('database away');
        }
        handled.push(`${e.kind}:${e.payload.job_id === a ? 'a' : 'b'}:${context.deliveries}`);
      },
    });
    await consumer.start();
    try {
      await waitFor('every event handled', async () => handled.length >= 4, 15_000, 50);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(handled).toEqual(['created:a:1', 'created:b:1', 'failed:a:2', 'cancelled:b:1']);
      const jsm = await nc.jetstreamManager();
      const info = await jsm.consumers.info(STREAMS.jobEvents, CONSUMERS.jobCounts);
      expect(info.num_pending + info.num_ack_pending).toBe(0);
      // The event that is not JSON is kept for an operator, with who sent it where.
      const kept = decodeJson<DeadLetterRecordV1>((await jsm.streams.getMessage(STREAMS.deadLetters, { last_by_subj: subjects.deadLetter(CONSUMERS.jobCounts) })).data);
      expect(kept).toMatchObject({ stream: STREAMS.jobEvents, consumer: CONSUMERS.jobCounts, subject: subjects.jobEvent('cancelled'), payload: 'not json', reason: 'undecodable', deliveries: 1 });
    } finally {
      await consumer.stop();
    }
  });

  it('handles only the kinds asked for, and resumes after the last acknowledged event', async () => {
    const jobId = randomUUID();
    const handled: JobEventKind[] = [];
    const options = { durable: CONSUMERS.jobCounts, kinds: ['completed'] as const, handle: async (e: JobEvent) => void handled.push(e.kind) };
    const first = new JobEventsConsumer(nc, options);
    await first.start();
    await publish(subjects.jobEvent('created'), event('created', jobId));
    await publish(subjects.jobEvent('completed'), { ...event('completed', jobId), result: {}, media_duration_seconds: 1 });
    await waitFor('completed handled', async () => handled.length === 1, 10_000, 50);
    await first.stop();
    await publish(subjects.jobEvent('completed'), { ...event('completed', randomUUID()), result: {}, media_duration_seconds: 1 });
    const second = new JobEventsConsumer(nc, options);
    await second.start();
    try {
      await waitFor('the next one handled', async () => handled.length === 2, 10_000, 50);
      expect(handled).toEqual(['completed', 'completed']);
    } finally {
      await second.stop();
    }
  });

  it('keeps one event in hand at a time, and asks nats-server for more once in many events, not after each', async () => {
    const jobIds = Array.from({ length: 50 }, () => randomUUID());
    for (const jobId of jobIds) await publish(subjects.jobEvent('created'), event('created', jobId));
    const pulls = jest.spyOn(nc, 'publish');
    const handled: string[] = [];
    let inHand = 0;
    let mostInHand = 0;
    const consumer = new JobEventsConsumer(nc, {
      durable: CONSUMERS.jobCounts,
      handle: async (e: JobEvent) => {
        mostInHand = Math.max(mostInHand, ++inHand);
        await new Promise((resolve) => setTimeout(resolve, 2));
        handled.push(e.payload.job_id);
        inHand--;
      },
    });
    await consumer.start();
    try {
      await waitFor('every event handled', async () => handled.length === jobIds.length, 15_000, 50);
      expect(handled).toEqual(jobIds);
      expect(mostInHand).toBe(1);
      const pullRequests = pulls.mock.calls.filter(([subject]) => subject.includes('.CONSUMER.MSG.NEXT.'));
      expect(pullRequests.length).toBeGreaterThan(0);
      expect(pullRequests.length).toBeLessThanOrEqual(5);
    } finally {
      pulls.mockRestore();
      await consumer.stop();
    }
  });

  it('keeps an event that is not JSON once the dead-letter stream is back, its first 64 KB of a huge one, holding the events behind it', async () => {
    const server = await startNatsServer();
    const client = await connect({ servers: server.url });
    const handled: string[] = [];
    const consumer = new JobEventsConsumer(client, { durable: CONSUMERS.jobCounts, ackWaitMs: 1_000, handle: async (e: JobEvent) => void handled.push(e.payload.job_id) });
    try {
      await ensureStreams(client);
      const jsm = await client.jetstreamManager();
      // The outage: VJ_DEAD_LETTERS gone, so the record cannot be kept.
      await jsm.streams.delete(STREAMS.deadLetters);
      const huge = `<${'x'.repeat(200 * 1024)}>`;
      await client.jetstream().publish(subjects.jobEvent('cancelled'), new TextEncoder().encode(huge), { msgID: randomUUID() });
      await client.jetstream().publish(subjects.jobEvent('created'), encodeJson(event('created', 'behind')), { msgID: randomUUID() });
      await consumer.start();
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(handled).toEqual([]);
      await ensureStreams(client);
      await waitFor('the event behind it handled', async () => handled.length === 1, 15_000, 100);
      const kept = decodeJson<DeadLetterRecordV1>((await jsm.streams.getMessage(STREAMS.deadLetters, { last_by_subj: subjects.deadLetter(CONSUMERS.jobCounts) })).data);
      expect(kept).toMatchObject({ subject: subjects.jobEvent('cancelled'), reason: 'undecodable' });
      expect(kept.deliveries).toBeGreaterThan(1);
      expect(kept.payload).toBe(huge.slice(0, 64 * 1024));
      expect(handled).toEqual(['behind']);
    } finally {
      await consumer.stop();
      await client.close();
      await server.stop();
    }
  }, 30_000);

  it('goes on reading after its nats-server restarts', async () => {
    const storeDir = mkdtempSync(join(tmpdir(), 'vj-nats-restart-'));
    const port = await freePort();
    let server = await startNatsServer({ storeDir, port });
    const client = await connect({ servers: server.url, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
    const handled: string[] = [];
    const consumer = new JobEventsConsumer(client, { durable: CONSUMERS.jobCounts, handle: async (e: JobEvent) => void handled.push(e.payload.job_id) });
    try {
      await ensureStreams(client);
      await consumer.start();
      await client.jetstream().publish(subjects.jobEvent('created'), encodeJson(event('created', 'before')), { msgID: randomUUID() });
      await waitFor('the first event handled', async () => handled.length === 1, 10_000, 50);
      await server.stop();
      server = await startNatsServer({ storeDir, port });
      // Sent again until the client has reconnected: one message id, so a send that timed out but was
      // stored is not stored twice.
      const [after, afterId] = [encodeJson(event('created', 'after')), randomUUID()];
      await waitFor('reconnected', async () => client.jetstream().publish(subjects.jobEvent('created'), after, { msgID: afterId }).then(() => true, () => false), 15_000, 200);
      await waitFor('the event after the restart handled', async () => handled.length === 2, 30_000, 100);
      expect(handled).toEqual(['before', 'after']);
    } finally {
      await consumer.stop();
      await client.close();
      await server.stop();
      rmSync(storeDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('makes its consumer again when it is deleted under it, and goes on reading', async () => {
    const server = await startNatsServer();
    const client = await connect({ servers: server.url });
    const handled: string[] = [];
    const logged: string[] = [];
    const consumer = new JobEventsConsumer(client, { durable: CONSUMERS.jobCounts, handle: async (e: JobEvent) => void handled.push(e.payload.job_id), log: (line) => logged.push(line) });
    try {
      await ensureStreams(client);
      await consumer.start();
      await client.jetstream().publish(subjects.jobEvent('created'), encodeJson(event('created', 'before')), { msgID: randomUUID() });
      await waitFor('the first event handled', async () => handled.length === 1, 10_000, 50);
      await (await client.jetstreamManager()).consumers.delete(STREAMS.jobEvents, CONSUMERS.jobCounts);
      await client.jetstream().publish(subjects.jobEvent('created'), encodeJson(event('created', 'after')), { msgID: randomUUID() });
      await waitFor('the event after the deletion handled', async () => handled.includes('after'), 20_000, 100);
      // Made again from the oldest event kept: the one handled before is known by its id, not handed twice.
      expect(handled).toEqual(['before', 'after']);
      expect(logged.join('\n')).toMatch(/pull from job-counts failed, retrying/);
      const info = await (await client.jetstreamManager()).consumers.info(STREAMS.jobEvents, CONSUMERS.jobCounts);
      expect(info.num_pending + info.num_ack_pending).toBe(0);
    } finally {
      await consumer.stop();
      await client.close();
      await server.stop();
    }
  }, 60_000);
});
