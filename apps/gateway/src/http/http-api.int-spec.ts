import { readFileSync } from 'node:fs';
import { OPENAPI_FILE } from '@vj/http-contracts';
import { setTimeout as sleep } from 'node:timers/promises';
import request from 'supertest';
import { HEALTH_CACHE_MS } from '../health/health.service';
import { generateApiKey, type CreatedAccount } from '../identity';
import { bearer, expectSchema, startGateway, type GatewayHarness } from '../../test/gateway-harness';

const VIDEO = 'https://media.example.com/clip.mp4';

describe('HTTP surface: auth, errors, health and OpenAPI', () => {
  let gw: GatewayHarness;
  let alice: CreatedAccount;

  beforeAll(async () => {
    gw = await startGateway('gateway_http_api');
    alice = await gw.newAccount('alice');
  });

  afterAll(() => gw.stop());

  function expectError(res: request.Response, status: number, code: string): void {
    expect(res.status).toBe(status);
    expectSchema('RequestError', res.body);
    expect(res.body.error.code).toBe(code);
  }

  describe('authentication', () => {
    it.each([
      ['no Authorization header', {}],
      ['a Basic scheme', { Authorization: 'Basic dXNlcjpwYXNz' }],
      ['an empty bearer', { Authorization: 'Bearer ' }],
      ['a malformed key', { Authorization: 'Bearer not-a-key' }],
      ['a well-formed key nobody owns', { Authorization: `Bearer ${generateApiKey()}` }],
    ])('answers 401 unauthenticated for %s', async (_name, headers) => {
      expectError(await request(gw.server).get('/v1/jobs').set(headers), 401, 'unauthenticated');
    });

    it.each([
      ['POST', '/v1/clean-audio-video'],
      ['POST', '/v1/video-background-removal'],
      ['GET', '/v1/clean-audio-video/7d0b6c1e-3f4a-4c3e-9a51-0c2f6b1e9d10'],
      ['POST', '/v1/video-background-removal/7d0b6c1e-3f4a-4c3e-9a51-0c2f6b1e9d10/cancel'],
      ['POST', '/v1/uploads'],
      ['POST', '/v1/estimates?type=clean-audio-video'],
      ['GET', '/v1/billing/balance'],
      ['GET', '/v1/billing/usage'],
      ['GET', '/v1/billing/ledger'],
    ])('guards %s %s', async (method, path) => {
      const res = method === 'GET' ? await request(gw.server).get(path) : await request(gw.server).post(path).send({ video_url: VIDEO });
      expectError(res, 401, 'unauthenticated');
    });

    it.each(['bearer', 'BEARER', 'BeArEr'])('takes the %s scheme in any case (RFC 9110)', async (scheme) => {
      const res = await request(gw.server).get('/v1/jobs').set({ Authorization: `${scheme} ${alice.api_key}` });
      expect(res.status).toBe(200);
    });

    it('checks the key before the body', async () => {
      expectError(await request(gw.server).post('/v1/clean-audio-video').send({ nonsense: true }), 401, 'unauthenticated');
    });
  });

  describe('request errors', () => {
    it.each([
      ['__proto__', '{"video_url":"https://example.com/v.mp4","__proto__":{"polluted":true}}'],
      ['constructor', '{"video_url":"https://example.com/v.mp4","constructor":{"prototype":{"polluted":true}}}'],
      ['prototype', '{"video_url":"https://example.com/v.mp4","prototype":1}'],
    ])('answers a %s property with 422 naming it, like any unknown property', async (field, body) => {
      const res = await request(gw.server).post('/v1/clean-audio-video').set(bearer(alice)).set('Content-Type', 'application/json').send(body);
      expectError(res, 422, 'invalid_request');
      expect(res.body.error.details).toEqual([expect.objectContaining({ type: 'unknown_property', field })]);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('answers malformed JSON with 400 invalid_request', async () => {
      const res = await request(gw.server).post('/v1/clean-audio-video').set(bearer(alice)).set('Content-Type', 'application/json').send('{"video_url":');
      expectError(res, 400, 'invalid_request');
      expect(res.body.error.details).toBeNull();
    });

    it.each([
      ['a JSON array', (r: request.Test) => r.send([{ video_url: VIDEO }])],
      ['a JSON string', (r: request.Test) => r.set('Content-Type', 'application/json').send('"video"')],
      ['a text/plain body', (r: request.Test) => r.set('Content-Type', 'text/plain').send(VIDEO)],
      ['no body', (r: request.Test) => r],
    ])('answers %s with 400 invalid_request', async (_name, send) => {
      expectError(await send(request(gw.server).post('/v1/clean-audio-video').set(bearer(alice))), 400, 'invalid_request');
    });

    it('answers a JSON body over 64 kB with 413 payload_too_large', async () => {
      const res = await request(gw.server).post('/v1/clean-audio-video').set(bearer(alice)).send({ video_url: VIDEO, padding: 'x'.repeat(70_000) });
      expectError(res, 413, 'payload_too_large');
    });

    it('answers an unknown route with 404 not_found', async () => {
      expectError(await request(gw.server).get('/v2/things'), 404, 'not_found');
      expectError(await request(gw.server).delete('/v1/jobs').set(bearer(alice)), 404, 'not_found');
    });

    it('answers 503 unavailable when the jobs service cannot be reached', async () => {
      gw.jobs.reachable = false;
      try {
        expectError(await request(gw.server).post('/v1/clean-audio-video').set(bearer(alice)).send({ video_url: VIDEO }), 503, 'unavailable');
        expectError(await request(gw.server).get('/v1/jobs').set(bearer(alice)), 503, 'unavailable');
      } finally {
        gw.jobs.reachable = true;
      }
    });

    it('answers an unexpected failure with 500 internal, hiding the cause and quoting the request id', async () => {
      const original = gw.jobs.list;
      gw.jobs.list = async () => {
        throw new Error('connection string postgres://secret@db');
      };
      try {
        const res = await request(gw.server).get('/v1/jobs').set(bearer(alice));
        expectError(res, 500, 'internal');
        expect(res.body.error.message).not.toContain('secret');
        expect(res.body.error.message).toContain(res.headers['x-request-id']);
      } finally {
        gw.jobs.list = original;
      }
    });

    it('sends an x-request-id on every response', async () => {
      const res = await request(gw.server).get('/v1/jobs').set(bearer(alice));
      expectSchema('JobList', res.body);
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });
  });

  describe('/healthz', () => {
    it('answers 200 ok when every dependency and service is up', async () => {
      const res = await request(gw.server).get('/healthz');
      expect(res.status).toBe(200);
      expectSchema('Health', res.body);
      expect(res.body).toEqual({
        status: 'ok',
        checks: { nats: 'up', s3: 'up', database: 'up', jobs: 'up', 'render-worker': 'up', billing: 'up', 'webhook-delivery': 'up' },
      });
    });

    it('answers 503 with the same shape when a service does not answer its ping', async () => {
      gw.serviceHealth.down.add('render-worker');
      try {
        // /healthz answers from its last check for a second.
        await sleep(HEALTH_CACHE_MS);
        const res = await request(gw.server).get('/healthz');
        expect(res.status).toBe(503);
        expectSchema('Health', res.body);
        expect(res.body.status).toBe('unavailable');
        expect(res.body.checks['render-worker']).toBe('down');
      } finally {
        gw.serviceHealth.down.clear();
      }
    });

    it('answers 503 when NATS is not connected', async () => {
      gw.serviceHealth.connected = false;
      try {
        await sleep(HEALTH_CACHE_MS);
        const res = await request(gw.server).get('/healthz');
        expect(res.status).toBe(503);
        expectSchema('Health', res.body);
        expect(res.body.checks.nats).toBe('down');
      } finally {
        gw.serviceHealth.connected = true;
      }
    });
  });

  describe('OpenAPI', () => {
    it('serves exactly the committed document (libs/http-contracts/src/http/openapi.json, the SDK is generated from it)', async () => {
      const res = await request(gw.server).get('/docs-json');
      expect(res.status).toBe(200);
      expect(res.body).toEqual(JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')));
    });

    it('serves the document at /docs-json with the contracts schemas as components', async () => {
      const res = await request(gw.server).get('/docs-json');
      expect(res.status).toBe(200);
      const schemas = res.body.components.schemas;
      const ids = ['CleanAudioVideoJob', 'VideoBackgroundRemovalJob', 'FileObject', 'JobError', 'RequestError', 'JobList', 'Upload', 'Health'];
      for (const id of [...ids, 'Estimate', 'Balance', 'UsageReport', 'LedgerPage']) {
        expect(schemas[id]).toBeDefined();
      }
      expect(JSON.stringify(schemas)).not.toMatch(/"\$ref":"(?!#\/components\/schemas\/)/);
      const create = res.body.paths['/v1/clean-audio-video'].post;
      expect(create.responses['202'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CleanAudioVideoJob' });
      expect(Object.keys(res.body.paths)).toEqual(
        expect.arrayContaining(['/v1/video-background-removal/{job_id}/cancel', '/v1/jobs', '/v1/uploads', '/healthz']),
      );
    });

    it('documents the billing endpoints with their schemas, query parameters and the CSV usage format', async () => {
      const { paths, components } = (await request(gw.server).get('/docs-json')).body;
      const schemaOf = (op: { responses: Record<string, { content: Record<string, { schema: unknown }> }> }, status: string, type = 'application/json') =>
        op.responses[status].content[type].schema;
      const names = (op: { parameters: { name: string; in: string }[] }) => op.parameters.filter((p) => p.in === 'query').map((p) => p.name).sort();

      const estimate = paths['/v1/estimates'].post;
      expect(schemaOf(estimate, '200')).toEqual({ $ref: '#/components/schemas/Estimate' });
      expect(names(estimate)).toEqual(['type']);
      const bodies = estimate.requestBody.content['application/json'].schema.oneOf.map((ref: { $ref: string }) => ref.$ref.split('/').pop());
      expect(bodies).toEqual(['CreateCleanAudioVideoJobRequest', 'CreateVideoBackgroundRemovalJobRequest']);
      for (const name of bodies) expect(components.schemas[name]).toBeDefined();
      expect(estimate.security).toEqual([{ bearer: [] }]);

      expect(schemaOf(paths['/v1/billing/balance'].get, '200')).toEqual({ $ref: '#/components/schemas/Balance' });
      const usage = paths['/v1/billing/usage'].get;
      expect(schemaOf(usage, '200')).toEqual({ $ref: '#/components/schemas/UsageReport' });
      expect(schemaOf(usage, '200', 'text/csv')).toEqual({ type: 'string' });
      expect(names(usage)).toEqual(['from', 'group_by', 'to']);
      const ledger = paths['/v1/billing/ledger'].get;
      expect(schemaOf(ledger, '200')).toEqual({ $ref: '#/components/schemas/LedgerPage' });
      expect(names(ledger)).toEqual(['cursor', 'limit']);
      expect(ledger.responses['422'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/RequestError' });
    });

    it('documents the RateLimit headers on every /v1 answer and a 429 with Retry-After on every /v1 operation', async () => {
      const doc = (await request(gw.server).get('/docs-json')).body as { paths: Record<string, Record<string, { responses: Record<string, { headers?: object }> }>> };
      const operations = Object.entries(doc.paths).filter(([path]) => path.startsWith('/v1/')).flatMap(([, item]) => Object.values(item));
      expect(operations.length).toBeGreaterThan(8);
      for (const operation of operations) {
        expect(operation.responses['429'].headers).toHaveProperty('Retry-After');
        for (const response of Object.values(operation.responses)) expect(Object.keys(response.headers ?? {})).toEqual(expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']));
      }
    });

    it('documents the event stream, Prefer: wait and Preference-Applied, and Last-Event-ID', async () => {
      const { paths } = (await request(gw.server).get('/docs-json')).body;
      for (const type of ['clean-audio-video', 'video-background-removal']) {
        const events = paths[`/v1/${type}/{job_id}/events`].get;
        expect(Object.keys(events.responses['200'].content)).toEqual(['text/event-stream']);
        expect(events.responses['204']).toBeDefined();
        expect(events.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['job_id', 'Last-Event-ID']));
        for (const operation of [paths[`/v1/${type}`].post, paths[`/v1/${type}/{job_id}`].get]) {
          expect(operation.parameters.map((p: { name: string }) => p.name)).toContain('Prefer');
          expect(operation.responses['200'].headers).toHaveProperty('Preference-Applied');
        }
      }
    });

    it('serves the AsyncAPI document of the internal events at /docs/events, without a key', async () => {
      const res = await request(gw.server).get('/docs/events');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ asyncapi: '3.0.0', channels: expect.objectContaining({ 'job-events.started': expect.any(Object) }) });
    });

    it('serves Swagger UI at /docs', async () => {
      const res = await request(gw.server).get('/docs').redirects(1);
      expect(res.status).toBe(200);
      expect(res.text).toContain('swagger-ui');
    });
  });
});
