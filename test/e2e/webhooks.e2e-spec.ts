import { join } from 'node:path';
import type { CleanAudioVideoJob, WebhookDefaultSecret, WebhookDelivery, WebhookDeliveryPage, WebhookEndpointPage, WebhookEndpointWithSecret, WebhookPayload } from '@vj/contracts';
import { schemaViolations } from '@vj/http-contracts';
import { waitFor } from '@vj/local-stack';
import { Webhook } from 'standardwebhooks';
import { useE2eStack } from '../support/e2e-stack';
import { generateVideo } from '../support/media-tools';
import { killHard } from '../support/processes';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../support/webhook-receiver';

const JOB_SCHEMA = 'CleanAudioVideoJob' as const;

// Webhooks through npm start's services: endpoints registered over the API, a real job, deliveries
// verified with the Standard Webhooks library, retries, the SSRF guard, rotation and a crash.
describe('webhooks, end to end', () => {
  // Retries a second apart, so the 500-500-500-200 receiver is done in seconds; a short attempt limit
  // keeps the claim of an instance killed mid-attempt short (timeout + 10 s).
  const e2e = useE2eStack('e2e-webhooks', { WEBHOOK_ALLOW_HOSTS: '127.0.0.1', WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s,1s,1s', WEBHOOK_TIMEOUT_MS: '3000' });
  let receiver: WebhookReceiver;
  // Listens on another loopback address, which the allow-list does not name: a private address.
  let privateReceiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver('127.0.0.1');
    privateReceiver = await startWebhookReceiver('127.0.0.2');
  });
  afterAll(async () => {
    await receiver?.close();
    await privateReceiver?.close();
  });

  const register = async (url: string, events?: string[]) => {
    const created = await e2e.api.request<WebhookEndpointWithSecret>('POST', '/v1/webhook-endpoints', 'WebhookEndpointWithSecret', { url, ...(events && { events }) });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_/);
    return created.body;
  };
  const deliveries = async (endpointId: string) => {
    const page = await e2e.api.request<WebhookDeliveryPage>('GET', `/v1/webhook-endpoints/${endpointId}/deliveries`, 'WebhookDeliveryPage');
    expect(page.status).toBe(200);
    return page.body.data;
  };
  const payloadOf = (item: ReceivedWebhook) => {
    const payload = JSON.parse(item.body) as WebhookPayload<CleanAudioVideoJob>;
    expect(schemaViolations('WebhookPayload', payload)).toEqual([]);
    return payload;
  };
  const verify = (secret: string, item: ReceivedWebhook) => {
    const payload = new Webhook(secret).verify(item.body, item.headers) as WebhookPayload<CleanAudioVideoJob>;
    expect(schemaViolations('WebhookPayload', payload)).toEqual([]);
    return payload;
  };
  const until = (what: string, check: () => boolean | Promise<boolean>, ms = 60_000) => waitFor(what, async () => check(), ms, 100);
  const input = async (name: string) => {
    const path = join(e2e.dir, name);
    await generateVideo(path, { codec: 'h264', seconds: 1, audio: true, size: '160x120' });
    return e2e.upload(path, 'video/mp4');
  };

  it('delivers job.started and job.completed signed, retries a failing receiver, never calls a private address, and honours a job webhook_url', async () => {
    const ok = await register(receiver.url('/ok'));
    const flaky = await register(receiver.url('/flaky'), ['job.completed']);
    const hidden = await register(privateReceiver.url('/private'));
    const progress = await register(receiver.url('/progress'), ['job.progress']);
    receiver.answer('/flaky', 500, 500, 500, 200);
    const listed = await e2e.api.request<WebhookEndpointPage>('GET', '/v1/webhook-endpoints', 'WebhookEndpointList');
    expect(listed.body.data.map((endpoint) => endpoint.id)).toEqual(expect.arrayContaining([ok.id, flaky.id, hidden.id]));
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');
    const { body: defaultSecret } = await e2e.api.request<WebhookDefaultSecret>('GET', '/v1/webhook-secret', 'WebhookDefaultSecret');

    const job = await e2e.runCleanAudio({ video_url: await input('hooked.mp4'), webhook_url: receiver.url('/job-own') });
    expect(job.status).toBe('COMPLETED');

    await until('started and completed at /ok', () => receiver.received('/ok').length >= 2);
    const okEvents = receiver.received('/ok').map((item) => ({ item, payload: payloadOf(item) }));
    expect(okEvents.map(({ payload }) => payload.type)).toEqual(['job.started', 'job.completed']);
    for (const { item, payload } of okEvents) {
      expect(verify(ok.secret, item)).toEqual(payload);
      expect(payload.data.job.job_id).toBe(job.job_id);
      expect(schemaViolations(JOB_SCHEMA, payload.data.job)).toEqual([]);
      expect(() => verify(flaky.secret, item)).toThrow();
    }
    expect(okEvents[0]!.payload.data.job).toEqual({ job_id: job.job_id, status: 'PROCESSING' });
    expect(okEvents[1]!.payload.data.job.status).toBe('COMPLETED');
    expect(okEvents[1]!.payload.data.job.result!.video.file_size).toBe(job.result!.video.file_size);

    // The job's own URL: the same events, signed with the account's default secret.
    await until('completed at /job-own', () => receiver.received('/job-own').length >= 2);
    for (const item of receiver.received('/job-own')) expect(verify(defaultSecret.secret, item).data.job.job_id).toBe(job.job_id);
    const own = await e2e.api.request<WebhookEndpointPage>('GET', `/v1/webhook-endpoints?job_id=${job.job_id}`, 'WebhookEndpointList');
    expect(own.body.data).toEqual([expect.objectContaining({ url: receiver.url('/job-own'), job_id: job.job_id })]);
    expect((await deliveries(own.body.data[0]!.id)).map((d) => d.event_type).sort()).toEqual(['job.completed', 'job.started']);

    // 500, 500, 500, then 200: the fourth attempt delivers, the same webhook-id every time.
    await until('the fourth attempt at /flaky', () => receiver.received('/flaky').length >= 4);
    const attempts = receiver.received('/flaky');
    expect(new Set(attempts.map((item) => item.headers['webhook-id'])).size).toBe(1);
    for (const item of attempts) expect(verify(flaky.secret, item).type).toBe('job.completed');
    let flakyDeliveries: WebhookDelivery[] = [];
    await until('the delivery recorded as delivered', async () => (flakyDeliveries = await deliveries(flaky.id))[0]?.state === 'delivered');
    expect(flakyDeliveries).toHaveLength(1);
    expect(flakyDeliveries[0]!.id).toBe(attempts[0]!.headers['webhook-id']);
    expect(flakyDeliveries[0]!.attempts.map((attempt) => attempt.status_code)).toEqual([500, 500, 500, 200]);

    // Progress, opted in: the running job beside where its work is, up to 1.
    await until('progress 1 at /progress', () => receiver.received('/progress').some((item) => payloadOf(item).data.progress?.progress === 1));
    for (const item of receiver.received('/progress')) {
      const payload = verify(progress.secret, item);
      expect(payload.type).toBe('job.progress');
      expect(payload.data.job).toEqual({ job_id: job.job_id, status: 'PROCESSING' });
      expect(payload.data.progress).toEqual({ stage: expect.any(String), progress: expect.any(Number), attempt: 1 });
    }

    // The private address: refused by the guard at every attempt, never connected to.
    let hiddenDeliveries: WebhookDelivery[] = [];
    await until('refused attempts recorded', async () => (hiddenDeliveries = await deliveries(hidden.id)).some((d) => d.attempts.length >= 2));
    for (const delivery of hiddenDeliveries) {
      expect(delivery.state).not.toBe('delivered');
      for (const attempt of delivery.attempts) expect(attempt).toEqual(expect.objectContaining({ status_code: null, error: expect.stringMatching(/private|refused|not allowed|loopback/i) }));
    }
    expect(privateReceiver.connections()).toBe(0);
  });

  it("signs with both secrets during a rotation's grace, and with the new one only after it", async () => {
    const endpoint = await register(receiver.url('/rotating'), ['job.completed']);
    await e2e.runCleanAudio({ video_url: await input('rotation.mp4') });
    await until('the first delivery', () => receiver.received('/rotating').length >= 1);
    const [delivery] = await deliveries(endpoint.id);

    const rotated = await e2e.api.request<WebhookEndpointWithSecret>('POST', `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, 'WebhookEndpointWithSecret', { grace_seconds: 3 });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    expect(rotated.body.previous_secret_expires_at).not.toBeNull();
    const resend = async (count: number) => {
      const retried = await e2e.api.request<WebhookDelivery>('POST', `/v1/webhook-endpoints/${endpoint.id}/deliveries/${delivery!.id}/retry`, 'WebhookDelivery');
      expect(retried.status).toBe(202);
      await until(`delivery #${count}`, () => receiver.received('/rotating').length >= count);
      return receiver.received('/rotating')[count - 1]!;
    };
    const duringGrace = await resend(2);
    expect(verify(endpoint.secret, duringGrace).type).toBe('job.completed');
    expect(verify(rotated.body.secret, duringGrace).type).toBe('job.completed');

    await new Promise((resolve) => setTimeout(resolve, 3_500));
    const afterGrace = await resend(3);
    expect(verify(rotated.body.secret, afterGrace).type).toBe('job.completed');
    expect(() => verify(endpoint.secret, afterGrace)).toThrow();
  });

  it('loses no delivery when the delivery service is killed -9 in the middle of an attempt', async () => {
    const endpoint = await register(receiver.url('/crash'), ['job.completed']);
    receiver.answer('/crash', 'hold', 200);
    const job = await e2e.runCleanAudio({ video_url: await input('crash.mp4') });
    await until('the attempt in flight', () => receiver.received('/crash').length >= 1);
    const service = e2e.stack.services.find((s) => s.name === 'webhook-delivery' && s.child.exitCode === null)!;
    await killHard(service);
    e2e.stack.addService('webhook-delivery');

    // The claim of the killed instance runs out (3 s attempt limit + 10 s), then the new one delivers.
    await until('the delivery after the crash', () => receiver.received('/crash').length >= 2, 90_000);
    const [first, second] = receiver.received('/crash');
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(verify(endpoint.secret, second!).data.job.job_id).toBe(job.job_id);
    await until('recorded as delivered', async () => (await deliveries(endpoint.id))[0]?.state === 'delivered');
  });

  it('refuses a bad endpoint, an unknown event type and a bad webhook_url with 422, and answers 404 for an unknown endpoint', async () => {
    const bad = await e2e.api.request('POST', '/v1/webhook-endpoints', 'RequestError', { url: 'ftp://example.com/x' });
    expect(bad.status).toBe(422);
    const unknownEvent = await e2e.api.request('POST', '/v1/webhook-endpoints', 'RequestError', { url: 'https://example.com/x', events: ['job.exploded'] });
    expect(unknownEvent.status).toBe(422);
    const badJobUrl = await e2e.api.request('POST', '/v1/clean-audio-video', 'RequestError', { video_url: 'https://example.com/a.mp4', webhook_url: 'file:///etc/passwd' });
    expect(badJobUrl.status).toBe(422);
    const missing = await e2e.api.request('GET', '/v1/webhook-endpoints/5f0c6f3e-8d1a-4c43-9e0e-2b7f3f1d6a10/deliveries', 'RequestError');
    expect(missing.status).toBe(404);
    const endpoint = await register('https://example.com/hook');
    const removed = await fetch(`${e2e.stack.apiUrl}/v1/webhook-endpoints/${endpoint.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${e2e.stack.apiKey}` } });
    expect(removed.status).toBe(204);
    const listed = await e2e.api.request<WebhookEndpointPage>('GET', '/v1/webhook-endpoints', 'WebhookEndpointList');
    expect(listed.body.data.map((e) => e.id)).not.toContain(endpoint.id);
  });

  it('serves the OpenAPI document (with the webhooks) and the AsyncAPI document from the running gateway', async () => {
    const openapi = await fetch(`${e2e.stack.apiUrl}/docs-json`);
    expect(openapi.status).toBe(200);
    expect(Object.keys(((await openapi.json()) as { webhooks: object }).webhooks)).toContain('job.completed');
    const asyncapi = await fetch(`${e2e.stack.apiUrl}/docs/events`);
    expect(asyncapi.status).toBe(200);
    expect(((await asyncapi.json()) as { asyncapi: string }).asyncapi).toMatch(/^3\./);
  });
});
