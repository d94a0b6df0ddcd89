import request from 'supertest';
import { RpcError } from '@vj/messaging';
import type { WebhookDelivery, WebhookEndpointWithSecret } from '@vj/contracts';
import type { CreatedAccount } from '../identity';
import { bearer, expectSchema, startGateway, type GatewayHarness } from '../../test/gateway-harness';
import { RpcWebhooksAdapter } from '../messaging/rpc-webhooks.adapter';
import type { WebhooksRpcClient } from '@vj/messaging';

const ENDPOINT_ID = '0b5a3c1e-2f4d-4e6a-8b9c-1d2e3f4a5b6c';
const DELIVERY_ID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

const endpoint: WebhookEndpointWithSecret = {
  id: ENDPOINT_ID,
  url: 'https://hooks.example.com/in',
  events: ['job.completed'],
  job_id: null,
  enabled: true,
  disabled_reason: null,
  created_at: '2026-11-24T00:00:00.000Z',
  previous_secret_expires_at: null,
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
};
const delivery: WebhookDelivery = {
  id: DELIVERY_ID,
  endpoint_id: ENDPOINT_ID,
  event_type: 'job.completed',
  job_id: '5f0c6f3e-8d1a-4c43-9e0e-2b7f3f1d6a10',
  state: 'pending',
  attempts: [{ attempted_at: '2026-11-24T00:00:01.000Z', status_code: 500, error: null, duration_ms: 12, response_body: 'oops' }],
  next_attempt_at: '2026-11-24T00:00:02.000Z',
  created_at: '2026-11-24T00:00:00.500Z',
};

describe('webhook endpoints API', () => {
  let gw: GatewayHarness;
  let alice: CreatedAccount;

  beforeAll(async () => {
    gw = await startGateway('gateway_webhooks_api');
    alice = await gw.newAccount('alice');
  });

  afterAll(() => gw.stop());

  beforeEach(() => {
    gw.webhooks.calls.length = 0;
    Object.assign(gw.webhooks.answers, {
      create_endpoint: endpoint,
      list_endpoints: { data: [{ ...endpoint, secret: undefined }].map(({ secret: _secret, ...rest }) => rest) },
      delete_endpoint: { deleted: true },
      rotate_endpoint_secret: endpoint,
      list_deliveries: { data: [delivery], next_cursor: null },
      retry_delivery: delivery,
      get_default_secret: { secret: endpoint.secret, previous_secret_expires_at: null },
      rotate_default_secret: { secret: endpoint.secret, previous_secret_expires_at: '2026-11-25T00:00:00.000Z' },
    });
  });

  const as = (account: CreatedAccount) => ({ ...bearer(account) });

  it("creates an endpoint for the caller's account with the default events, answering 201 with the secret", async () => {
    const res = await request(gw.server).post('/v1/webhook-endpoints').set(as(alice)).send({ url: 'https://hooks.example.com/in' });
    expect(res.status).toBe(201);
    expectSchema('WebhookEndpointWithSecret', res.body);
    expect(gw.webhooks.calls).toEqual([
      { method: 'create_endpoint', request: { version: 1, account_id: alice.account_id, url: 'https://hooks.example.com/in', events: ['job.started', 'job.completed', 'job.failed', 'job.cancelled'] } },
    ]);
  });

  it.each([
    ['no url', {}, ['url']],
    ['a file URL', { url: 'file:///etc/passwd' }, ['url']],
    ['a URL with credentials', { url: 'https://user:pw@hooks.example.com/' }, ['url']],
    ['an unknown event type', { url: 'https://a.example', events: ['job.exploded'] }, ['events']],
    ['an empty event list', { url: 'https://a.example', events: [] }, ['events']],
    ['an unknown property', { url: 'https://a.example', secret: 'whsec_mine' }, ['secret']],
  ])('refuses %s with 422 before calling the service', async (_name, body, fields) => {
    const res = await request(gw.server).post('/v1/webhook-endpoints').set(as(alice)).send(body);
    expect(res.status).toBe(422);
    expectSchema('RequestError', res.body);
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(fields);
    expect(gw.webhooks.calls).toEqual([]);
  });

  it('lists, rotates, deletes, lists deliveries and retries one, each answer matching its schema', async () => {
    const listed = await request(gw.server).get('/v1/webhook-endpoints').set(as(alice));
    expect(listed.status).toBe(200);
    expectSchema('WebhookEndpointList', listed.body);
    const rotated = await request(gw.server).post(`/v1/webhook-endpoints/${ENDPOINT_ID}/rotate-secret`).set(as(alice)).send({ grace_seconds: 60 });
    expect(rotated.status).toBe(200);
    expectSchema('WebhookEndpointWithSecret', rotated.body);
    const deliveries = await request(gw.server).get(`/v1/webhook-endpoints/${ENDPOINT_ID}/deliveries?limit=5`).set(as(alice));
    expect(deliveries.status).toBe(200);
    expectSchema('WebhookDeliveryPage', deliveries.body);
    const retried = await request(gw.server).post(`/v1/webhook-endpoints/${ENDPOINT_ID}/deliveries/${DELIVERY_ID}/retry`).set(as(alice));
    expect(retried.status).toBe(202);
    expectSchema('WebhookDelivery', retried.body);
    const removed = await request(gw.server).delete(`/v1/webhook-endpoints/${ENDPOINT_ID}`).set(as(alice));
    expect(removed.status).toBe(204);
    expect(gw.webhooks.calls.map((call) => call.method)).toEqual(['list_endpoints', 'rotate_endpoint_secret', 'list_deliveries', 'retry_delivery', 'delete_endpoint']);
    expect(gw.webhooks.calls.every((call) => (call.request as { account_id: string }).account_id === alice.account_id)).toBe(true);
    expect(gw.webhooks.calls[1]!.request).toEqual(expect.objectContaining({ grace_seconds: 60 }));
    expect(gw.webhooks.calls[2]!.request).toEqual(expect.objectContaining({ limit: 5 }));
  });

  it('answers 404 for an id that is not a UUID, 422 for a grace out of range', async () => {
    expect((await request(gw.server).delete('/v1/webhook-endpoints/not-a-uuid').set(as(alice))).status).toBe(404);
    const grace = await request(gw.server).post(`/v1/webhook-endpoints/${ENDPOINT_ID}/rotate-secret`).set(as(alice)).send({ grace_seconds: 10 ** 9 });
    expect(grace.status).toBe(422);
    expect(gw.webhooks.calls).toEqual([]);
  });

  it("shows and rotates the account's default secret", async () => {
    const shown = await request(gw.server).get('/v1/webhook-secret').set(as(alice));
    expect(shown.status).toBe(200);
    expectSchema('WebhookDefaultSecret', shown.body);
    const rotated = await request(gw.server).post('/v1/webhook-secret/rotate').set(as(alice)).send({});
    expect(rotated.status).toBe(200);
    expectSchema('WebhookDefaultSecret', rotated.body);
  });

  it('refuses a job webhook_url that is not an http(s) URL with 422, and passes a good one to the create', async () => {
    const bad = await request(gw.server).post('/v1/clean-audio-video').set(as(alice)).send({ video_url: 'https://media.example.com/a.mp4', webhook_url: 'gopher://x' });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: { field: string }) => d.field)).toEqual(['webhook_url']);
    const good = await request(gw.server).post('/v1/clean-audio-video').set(as(alice)).send({ video_url: 'https://media.example.com/a.mp4', webhook_url: 'https://hooks.example.com/job' });
    expect(good.status).toBe(202);
    expect(Object.keys(good.body).sort()).toEqual(['credits_estimated', 'job_id', 'status']);
    expect(gw.jobs.creates.at(-1)).toEqual(expect.objectContaining({ webhook_url: 'https://hooks.example.com/job' }));
  });

  it("maps the service's refusals and its absence to request errors", async () => {
    const adapter = (error: Error) => new RpcWebhooksAdapter({ call: async () => Promise.reject(error) } as unknown as WebhooksRpcClient);
    const statusOf = (error: Error) => adapter(error).call('list_endpoints', { version: 1, account_id: alice.account_id }).catch((e: { status: number }) => e.status);
    expect(await statusOf(new RpcError('not_found', 'no'))).toBe(404);
    expect(await statusOf(new RpcError('conflict', 'no'))).toBe(409);
    expect(await statusOf(new RpcError('invalid_request', 'no'))).toBe(422);
    expect(await statusOf(new RpcError('unavailable', 'no'))).toBe(503);
    gw.webhooks.answers.list_endpoints = new (await import('../http/api-error')).ApiError(503, 'unavailable', 'the webhook delivery service is unavailable; retry later');
    const res = await request(gw.server).get('/v1/webhook-endpoints').set(as(alice));
    expect(res.status).toBe(503);
    expectSchema('RequestError', res.body);
  });
});
