import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AllowList } from '@vj/egress';
import { transload, type TransloadOptions } from './transload';
import { startLocalHttpServer, type LocalHttpServer } from './testing/local-http-server';
import { TransloadError } from './transload-error';

const BODY = Buffer.alloc(64 * 1024, 7);
const LOCAL = AllowList.parse('127.0.0.1');

type Route = (res: ServerResponse) => void;
const routes: Record<string, Route> = {
  '/video.mp4': (res) => res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': BODY.length }).end(BODY),
  '/missing': (res) => res.writeHead(404).end('no'),
  '/chunked': (res) => {
    res.writeHead(200, { 'content-type': 'video/mp4' });
    res.write(BODY);
    res.end(BODY);
  },
  '/stall': (res) => {
    res.writeHead(200, { 'content-length': 1000 });
    res.write('x');
  },
  '/to-private': (res) => res.writeHead(302, { location: 'http://10.0.0.5/video.mp4' }).end(),
  '/to-metadata': (res) => res.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
  '/to-video': (res) => res.writeHead(307, { location: '/video.mp4' }).end(),
};

let server: LocalHttpServer;
let base: string;
let dir: string;
let requests: string[];

beforeAll(async () => {
  server = await startLocalHttpServer((req, res) => {
    requests.push(req.url ?? '');
    const hops = /^\/hop\/(\d+)$/.exec(req.url ?? '');
    if (hops) return void res.writeHead(302, { location: `/hop/${Number(hops[1]) + 1}` }).end();
    const chain = /^\/chain\/(\d+)$/.exec(req.url ?? '');
    if (chain) {
      const left = Number(chain[1]);
      return void res.writeHead(302, { location: left > 0 ? `/chain/${left - 1}` : '/video.mp4' }).end();
    }
    (routes[req.url ?? ''] ?? routes['/missing'])(res);
  });
  base = server.base;
});

afterAll(() => server.close());

beforeEach(() => {
  requests = [];
  dir = mkdtempSync(join(tmpdir(), 'vj-transload-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const options = (overrides: Partial<TransloadOptions> = {}): TransloadOptions => ({ maxBytes: 1 << 20, timeoutMs: 5_000, allowHosts: LOCAL, ...overrides });

async function failure(url: string, overrides: Partial<TransloadOptions> = {}): Promise<TransloadError> {
  const error = await transload(url, join(dir, 'in'), options(overrides)).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TransloadError);
  expect((error as TransloadError).code).toBe('transload_failed');
  return error as TransloadError;
}

describe('transload', () => {
  it('downloads the file and returns its size and SHA-256', async () => {
    const dest = join(dir, 'in');
    const fetched = await transload(`${base}/video.mp4`, dest, options());
    expect(fetched).toEqual({ path: dest, size: BODY.length, sha256: createHash('sha256').update(BODY).digest('hex') });
    expect(readFileSync(dest).equals(BODY)).toBe(true);
  });

  it('follows a relative redirect on an allowed host', async () => {
    const fetched = await transload(`${base}/to-video`, join(dir, 'in'), options());
    expect(fetched.size).toBe(BODY.length);
  });

  it('follows a chain of exactly five redirects', async () => {
    const fetched = await transload(`${base}/chain/4`, join(dir, 'in'), options());
    expect(fetched.size).toBe(BODY.length);
  });

  it('fails on a non-2xx answer and leaves no file behind', async () => {
    const error = await failure(`${base}/missing`);
    expect(error.rule).toBe('http_status');
    expect(error.message).toContain('HTTP 404');
    expect(existsSync(join(dir, 'in'))).toBe(false);
  });

  it('refuses a file whose Content-Length is over the limit without reading it', async () => {
    const error = await failure(`${base}/video.mp4`, { maxBytes: 1000 });
    expect(error.rule).toBe('too_large');
    expect(error.message).toContain(`${BODY.length} bytes`);
  });

  it('stops a body without Content-Length once it passes the limit', async () => {
    const error = await failure(`${base}/chunked`, { maxBytes: BODY.length + 10 });
    expect(error.rule).toBe('too_large');
    expect(existsSync(join(dir, 'in'))).toBe(false);
  });

  it('gives up on a server that is too slow', async () => {
    const started = Date.now();
    const error = await failure(`${base}/stall`, { timeoutMs: 300 });
    expect(error.rule).toBe('timeout');
    // Generous bound: it only proves the limit stopped a server that never answers.
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('refuses a redirect to a private address without connecting to it', async () => {
    const error = await failure(`${base}/to-private`);
    expect(error.rule).toBe('blocked_address');
    expect(error.details?.[0].message).toContain('10.0.0.5');
  });

  it('refuses a redirect to the cloud metadata address', async () => {
    expect((await failure(`${base}/to-metadata`)).rule).toBe('blocked_address');
  });

  it('refuses the sixth redirect of a chain', async () => {
    const error = await failure(`${base}/hop/0`);
    expect(error.rule).toBe('redirect_limit');
    expect(requests).toHaveLength(6);
  });

  it('refuses a loopback URL when the allow-list does not name it', async () => {
    const error = await failure(`${base}/video.mp4`, { allowHosts: undefined });
    expect(error.rule).toBe('blocked_address');
    expect(requests).toHaveLength(0);
  });

  it('refuses a public-looking name that resolves to a private address', async () => {
    const resolve = async () => [{ address: '127.0.0.1', family: 4 as const }];
    const error = await failure(`${base.replace('127.0.0.1', 'videos.example.com')}/video.mp4`, { allowHosts: undefined, resolve });
    expect(error.rule).toBe('blocked_address');
    expect(requests).toHaveLength(0);
  });

  it('connects to the vetted address instead of resolving the name a second time', async () => {
    const resolve = async () => [{ address: '127.0.0.1', family: 4 as const }];
    const fetched = await transload(`${base.replace('127.0.0.1', 'only-in-our-resolver.test')}/video.mp4`, join(dir, 'in'), options({ resolve }));
    expect(fetched.size).toBe(BODY.length);
  });

  it('fails with a DNS error for a name that does not resolve', async () => {
    const error = await failure('http://does-not-exist.invalid/video.mp4');
    expect(error.rule).toBe('dns');
  });

  it('fails with a connection error when nothing listens', async () => {
    const error = await failure('http://127.0.0.1:1/video.mp4');
    expect(error.rule).toBe('connection');
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('rethrows the abort reason, not a job failure, when the caller aborts', async () => {
    const controller = new AbortController();
    const reason = new Error('job cancelled');
    setTimeout(() => controller.abort(reason), 100);
    await expect(transload(`${base}/stall`, join(dir, 'in'), options({ signal: controller.signal }))).rejects.toBe(reason);
  });
});
