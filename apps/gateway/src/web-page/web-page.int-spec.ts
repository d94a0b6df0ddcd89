import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { startGateway, type GatewayHarness } from '../../test/gateway-harness';
import { WEB_PAGE_NOT_BUILT } from './web-page.middleware';

const INDEX = '<!doctype html><title>Video jobs</title><script type="module" src="/assets/index-abc123.js"></script>';

describe('the web page at /', () => {
  let dist: string;
  let gw: GatewayHarness;
  let unbuilt: GatewayHarness;

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'vj-web-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), INDEX);
    writeFileSync(join(dist, 'assets', 'index-abc123.js'), 'console.log("page")');
    writeFileSync(join(dist, '.env'), 'SECRET=1');
    gw = await startGateway('gateway_web_page', { S3_PUBLIC_ENDPOINT: 'https://media.example.com:9000' }, { webDistDir: dist });
    unbuilt = await startGateway('gateway_web_page_unbuilt', {}, { webDistDir: join(dist, 'missing') });
  });

  afterAll(async () => {
    await gw?.stop();
    await unbuilt?.stop();
    rmSync(dist, { recursive: true, force: true });
  });

  it('answers / with the page, public, with a CSP of its own origin plus the storage endpoint, and nosniff', async () => {
    const res = await request(gw.server).get('/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toBe(INDEX);
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self' https://media.example.com:9000");
    expect(csp).toContain("media-src 'self' blob: https://media.example.com:9000");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['x-request-id']).toBeDefined();
    expect((await request(gw.server).head('/')).status).toBe(200);
  });

  it('serves the hashed assets for a year and nothing else from the build', async () => {
    const asset = await request(gw.server).get('/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['x-content-type-options']).toBe('nosniff');
    for (const path of ['/.env', '/assets/missing.js', '/assets/..%2f.env', '/assets/%2e%2e/.env', '/../.env', '/nothing-here']) {
      const res = await request(gw.server).get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.text).not.toContain('SECRET');
    }
  });

  it('shadows none of the API: /v1 still wants a key, /docs-json, /docs/events and /healthz answer as before', async () => {
    expect((await request(gw.server).get('/v1/jobs')).status).toBe(401);
    expect((await request(gw.server).get('/docs-json')).body.openapi).toBe('3.1.0');
    expect((await request(gw.server).get('/docs/events')).body.asyncapi).toBeDefined();
    expect((await request(gw.server).get('/healthz')).headers['content-type']).toMatch(/json/);
    expect((await request(gw.server).post('/').send({})).status).toBe(404);
  });

  it('answers a clear 503 that says to build the page when the build is missing', async () => {
    const res = await request(unbuilt.server).get('/');
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.text).toBe(WEB_PAGE_NOT_BUILT);
    expect((await request(unbuilt.server).get('/v1/jobs')).status).toBe(401);
  });
});
