import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AllowList } from '@vj/egress';
import { fetchPrefix, type PrefixOptions } from './fetch-prefix';
import { startLocalHttpServer, type LocalHttpServer } from './testing/local-http-server';
import { TransloadError } from './transload-error';

const BODY = Buffer.from(Array.from({ length: 64 * 1024 }, (_, i) => i % 251));
const LOCAL = AllowList.parse('127.0.0.1');

type Route = (res: ServerResponse, range: string | undefined) => void;
const partial = (res: ServerResponse, end: number, total: number | '*') =>
  res.writeHead(206, { 'content-range': `bytes 0-${end}/${total}` }).end(BODY.subarray(0, end + 1));
const routes: Record<string, Route> = {
  '/ranged': (res, range) => {
    const end = Math.min(Number(/^bytes=0-(\d+)$/.exec(range ?? '')?.[1] ?? BODY.length - 1), BODY.length - 1);
    partial(res, end, BODY.length);
  },
  '/ignores-range': (res) => res.writeHead(200, { 'content-length': BODY.length }).end(BODY),
  '/short-unknown-total': (res) => partial(res, 99, '*'),
  '/from-the-middle': (res) => res.writeHead(206, { 'content-range': `bytes 100-199/${BODY.length}` }).end(BODY.subarray(100, 200)),
  '/no-content': (res) => res.writeHead(204).end(),
  '/stall': (res) => void res.writeHead(206, { 'content-range': `bytes 0-999/${BODY.length}` }).write('x'),
};

let server: LocalHttpServer;
let base: string;
let dir: string;
let ranges: (string | undefined)[];

beforeAll(async () => {
  server = await startLocalHttpServer((req, res) => {
    ranges.push(req.headers.range);
    (routes[req.url ?? ''] ?? ((r: ServerResponse) => r.writeHead(404).end()))(res, req.headers.range);
  });
  base = server.base;
});

afterAll(() => server.close());

beforeEach(() => {
  ranges = [];
  dir = mkdtempSync(join(tmpdir(), 'vj-prefix-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const options = (overrides: Partial<PrefixOptions> = {}): PrefixOptions => ({ maxBytes: 1000, signal: AbortSignal.timeout(5_000), allowHosts: LOCAL, ...overrides });
const saved = () => readFileSync(join(dir, 'in'));

describe('fetchPrefix', () => {
  it('asks for the first maxBytes only and keeps them', async () => {
    await expect(fetchPrefix(`${base}/ranged`, join(dir, 'in'), options())).resolves.toEqual({ size: 1000, whole: false });
    expect(ranges).toEqual(['bytes=0-999']);
    expect(saved().equals(BODY.subarray(0, 1000))).toBe(true);
  });

  it('stops reading at maxBytes when the server ignores the Range header', async () => {
    await expect(fetchPrefix(`${base}/ignores-range`, join(dir, 'in'), options())).resolves.toEqual({ size: 1000, whole: false });
    expect(saved().equals(BODY.subarray(0, 1000))).toBe(true);
  });

  it('says the file is whole when it ends before maxBytes', async () => {
    const maxBytes = BODY.length + 1;
    await expect(fetchPrefix(`${base}/ranged`, join(dir, 'in'), options({ maxBytes }))).resolves.toEqual({ size: BODY.length, whole: true });
    await expect(fetchPrefix(`${base}/ignores-range`, join(dir, 'in'), options({ maxBytes }))).resolves.toEqual({ size: BODY.length, whole: true });
  });

  it('does not call a short range answer whole when its total is unknown', async () => {
    await expect(fetchPrefix(`${base}/short-unknown-total`, join(dir, 'in'), options())).resolves.toEqual({ size: 100, whole: false });
  });

  it('refuses a range answer that does not start at byte 0, and other 2xx answers', async () => {
    for (const path of ['/from-the-middle', '/no-content']) {
      const error = await fetchPrefix(`${base}${path}`, join(dir, 'in'), options()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TransloadError);
      expect((error as TransloadError).rule).toBe('http_status');
    }
  });

  it('refuses a loopback URL the allow-list does not name, before any request', async () => {
    const error = await fetchPrefix(`${base}/ranged`, join(dir, 'in'), options({ allowHosts: undefined })).catch((e: unknown) => e);
    expect((error as TransloadError).rule).toBe('blocked_address');
    expect(ranges).toEqual([]);
  });

  it('rethrows the abort reason when the signal fires mid-body', async () => {
    const reason = new Error('time is up');
    const controller = new AbortController();
    setTimeout(() => controller.abort(reason), 100);
    await expect(fetchPrefix(`${base}/stall`, join(dir, 'in'), options({ signal: controller.signal }))).rejects.toBe(reason);
  });
});
