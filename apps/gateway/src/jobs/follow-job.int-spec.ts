import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { JobStateUpdateV1, JobUpdateV1, StoredResultV1 } from '@vj/contracts';
import { openSse, type SseMessage } from '../../test/sse-client';
import type { CreatedAccount } from '../identity';
import { bearer, expectJob, expectSchema, startGateway, type GatewayHarness } from '../../test/gateway-harness';

const TYPE = 'clean-audio-video' as const;
const VIDEO = 'https://media.example.com/clip.mp4';
const RESULT: StoredResultV1 = { job_type: TYPE, video: { object_key: 'results/a/b/1/b-clean.mp4', content_type: 'video/mp4', file_name: 'b-clean.mp4', file_size: 5 } };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Following a job through the gateway (decision 0030): Prefer: wait and the SSE stream, against a fake
// jobs service and a fake VJ_JOB_UPDATES.
describe('following a job', () => {
  let gw: GatewayHarness;
  let alice: CreatedAccount;
  let bob: CreatedAccount;
  let baseUrl: string;

  beforeAll(async () => {
    gw = await startGateway('gateway_follow_job', { JOB_FOLLOWERS_PER_ACCOUNT: '3', SSE_HEARTBEAT_SECONDS: '1' });
    await gw.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(gw.server.address() as AddressInfo).port}`;
    alice = await gw.newAccount('alice');
    bob = await gw.newAccount('bob');
  });

  afterAll(() => gw.stop());

  const newJob = async (): Promise<string> => {
    const res = await request(gw.server).post(`/v1/${TYPE}`).set(bearer(alice)).send({ video_url: VIDEO });
    expect(res.status).toBe(202);
    return res.body.job_id as string;
  };
  const base = (jobId: string) => ({ version: 1 as const, job_id: jobId, account_id: alice.account_id, job_type: TYPE, occurred_at: new Date().toISOString() });
  const state = (jobId: string, event: JobStateUpdateV1['event'], status: JobStateUpdateV1['status']): JobUpdateV1 => ({ ...base(jobId), kind: 'state', event, status });
  const progress = (jobId: string, stage: 'fetching' | 'processing' | 'uploading', value: number): JobUpdateV1 => ({ ...base(jobId), kind: 'progress', stage, progress: value, attempt: 1 });
  const complete = (jobId: string) => {
    gw.jobs.complete(jobId, RESULT, 5);
    return gw.jobUpdates.publish(state(jobId, 'completed', 'COMPLETED'));
  };
  const sse = (jobId: string, headers: Record<string, string> = {}, account = alice, onEvent?: (e: SseMessage) => void) =>
    openSse(`${baseUrl}/v1/${TYPE}/${jobId}/events`, { authorization: `Bearer ${account.api_key}`, ...headers }, 20_000, onEvent);

  describe('Prefer: wait', () => {
    it('answers a read with the final job as soon as it ends, with Preference-Applied', async () => {
      const jobId = await newJob();
      setTimeout(() => complete(jobId), 300);
      const started = Date.now();
      const res = await request(gw.server).get(`/v1/${TYPE}/${jobId}`).set(bearer(alice)).set('Prefer', 'wait=10');
      expect(res.status).toBe(200);
      expect(res.headers['preference-applied']).toBe('wait=10');
      expectJob(TYPE, res.body);
      expect(res.body.status).toBe('COMPLETED');
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(gw.jobUpdates.watcherCount(jobId)).toBe(0);
    });

    it('answers a read with the job as it is when the wait runs out', async () => {
      const jobId = await newJob();
      const res = await request(gw.server).get(`/v1/${TYPE}/${jobId}`).set(bearer(alice)).set('Prefer', 'wait=1');
      expect(res.status).toBe(200);
      expect(res.headers['preference-applied']).toBe('wait=1');
      expect(res.body.status).toBe('PROCESSING');
    });

    it('answers a create with the final job (200) when it ends within the wait, else the usual 202', async () => {
      const done = setInterval(() => {
        for (const jobId of gw.jobUpdates.watchedJobIds()) complete(jobId);
      }, 50);
      try {
        const res = await request(gw.server).post(`/v1/${TYPE}`).set(bearer(alice)).set('Prefer', 'wait=10').send({ video_url: VIDEO });
        expect(res.status).toBe(200);
        expect(res.headers['preference-applied']).toBe('wait=10');
        expectJob(TYPE, res.body);
        expect(res.body).toMatchObject({ status: 'COMPLETED', credits_charged: 5 });
      } finally {
        clearInterval(done);
      }
      const waited = await request(gw.server).post(`/v1/${TYPE}`).set(bearer(alice)).set('Prefer', 'wait=1').send({ video_url: VIDEO });
      expect(waited.status).toBe(202);
      expect(waited.headers['preference-applied']).toBe('wait=1');
      expect(waited.body).toEqual({ job_id: expect.any(String), status: 'PROCESSING', credits_estimated: expect.any(Number) });
    });

    it('ignores a preference it does not take, and never waits on a job of another account', async () => {
      const jobId = await newJob();
      const plain = await request(gw.server).get(`/v1/${TYPE}/${jobId}`).set(bearer(alice)).set('Prefer', 'respond-async');
      expect(plain.status).toBe(200);
      expect(plain.headers['preference-applied']).toBeUndefined();
      const other = await request(gw.server).get(`/v1/${TYPE}/${jobId}`).set(bearer(bob)).set('Prefer', 'wait=30');
      expect(other.status).toBe(404);
      expectSchema('RequestError', other.body);
    });
  });

  describe('the event stream', () => {
    it('sends started, progress and the final job object in order, each with an id, then closes', async () => {
      const jobId = await newJob();
      const stream = await sse(jobId);
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      gw.jobUpdates.publish(state(jobId, 'started', 'PROCESSING'));
      gw.jobUpdates.publish(progress(jobId, 'fetching', 0));
      gw.jobUpdates.publish(progress(jobId, 'processing', 0.5));
      gw.jobUpdates.publish(progress(jobId, 'uploading', 1));
      await sleep(1_500);
      complete(jobId);
      const events = await stream.events;
      expect(events.map((e) => e.event)).toEqual(['job.started', 'job.progress', 'job.progress', 'job.progress', 'job.completed']);
      const ids = events.map((e) => Number(e.id));
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expectJob(TYPE, JSON.parse(events[0].data));
      expect(JSON.parse(events[2].data)).toEqual({ job_id: jobId, stage: 'processing', progress: 0.5 });
      const final = JSON.parse(events[4].data);
      expectJob(TYPE, final);
      expect(final).toMatchObject({ job_id: jobId, status: 'COMPLETED', credits_charged: 5 });
      // Heartbeats while nothing happened (every second here).
      expect(stream.comments()).toBeGreaterThanOrEqual(1);
      expect(gw.jobUpdates.watcherCount(jobId)).toBe(0);
    });

    it('resumes after Last-Event-ID without repeating an event, and answers 204 once the final event was seen', async () => {
      const jobId = await newJob();
      gw.jobUpdates.publish(state(jobId, 'started', 'PROCESSING'));
      const seen = gw.jobUpdates.publish(progress(jobId, 'processing', 0.3));
      gw.jobUpdates.publish(progress(jobId, 'processing', 0.6));
      const finalSeq = complete(jobId);
      const resumed = await (await sse(jobId, { 'Last-Event-ID': String(seen) })).events;
      expect(resumed.map((e) => [e.event, e.id])).toEqual([
        ['job.progress', String(seen + 1)],
        ['job.completed', String(finalSeq)],
      ]);
      const after = await sse(jobId, { 'Last-Event-ID': String(finalSeq) });
      expect(after.status).toBe(204);
    });

    it('sends the final job object at once for a job that ended before its updates were kept', async () => {
      const jobId = await newJob();
      gw.jobs.fail(jobId, { code: 'invalid_file', message: 'no audio', details: null });
      const events = await (await sse(jobId)).events;
      expect(events.map((e) => [e.event, e.id])).toEqual([['job.failed', 'end']]);
      expect(JSON.parse(events[0].data)).toMatchObject({ status: 'FAILED', error: { code: 'invalid_file' } });
      expect((await sse(jobId, { 'Last-Event-ID': 'end' })).status).toBe(204);
    });

    it('passes over progress stored after the end, and stops a client that resumes after it', async () => {
      const jobId = await newJob();
      gw.jobs.fail(jobId, { code: 'invalid_file', message: 'no audio', details: null });
      const finalSeq = gw.jobUpdates.publish(state(jobId, 'failed', 'FAILED'));
      const late = gw.jobUpdates.publish(progress(jobId, 'processing', 0.7));
      const resumed = await (await sse(jobId, { 'Last-Event-ID': String(finalSeq) })).events;
      expect(resumed.map((e) => [e.event, e.id])).toEqual([['job.failed', String(late)]]);
      expect((await sse(jobId, { 'Last-Event-ID': String(late) })).status).toBe(204);
    });

    it("is a JSON 404 for another account's job, and 429 past the account's open followers", async () => {
      const jobId = await newJob();
      const other = await sse(jobId, {}, bob);
      expect(other.status).toBe(404);
      expect(other.headers.get('content-type')).toMatch(/application\/json/);
      const open = await Promise.all([sse(jobId), sse(jobId), sse(jobId)]);
      expect(open.map((s) => s.status)).toEqual([200, 200, 200]);
      const refused = await sse(jobId);
      expect(refused.status).toBe(429);
      // A read asking to wait answers at once instead, like a create.
      const started = Date.now();
      const read = await request(gw.server).get(`/v1/${TYPE}/${jobId}`).set(bearer(alice)).set('Prefer', 'wait=5');
      expect(read.status).toBe(200);
      expect(read.headers['preference-applied']).toBeUndefined();
      expect(Date.now() - started).toBeLessThan(4_000);
      complete(jobId);
      await Promise.all(open.map((s) => s.events));
      expect((await request(gw.server).get(`/v1/${TYPE}/${jobId}`).set(bearer(alice)).set('Prefer', 'wait=1')).headers['preference-applied']).toBe('wait=1');
    });
  });
});
