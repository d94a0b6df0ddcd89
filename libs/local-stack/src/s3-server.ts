import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';
import { multipartCompletion } from './s3-multipart';

export interface LocalS3Server {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  stop(): Promise<void>;
}

// s3rver has no typings and no working bin entry; it is started from code.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('@20minutes/s3rver') as new (options: Record<string, unknown>) => {
  configureBuckets(): Promise<void>;
  callback(): (req: unknown, res: unknown) => void;
  // Koa's middleware, in order; the last is s3rver's router.
  middleware: unknown[];
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const s3rverAuthentication = require('@20minutes/s3rver/lib/middleware/authentication') as () => Parameters<typeof multipartCompletion>[1];

const EMPTY_MULTIPART_LISTING =
  '<?xml version="1.0" encoding="UTF-8"?>\n<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><IsTruncated>false</IsTruncated></ListMultipartUploadsResult>';

// s3rver verifies a request's signature when it carries one (the Authorization header, or a presigned
// URL's X-Amz-Algorithm or legacy Signature parameter) and serves a request without one anonymously.
// MinIO with a private bucket refuses those, so the front refuses them too: nothing works here that
// would not work in production.
function carriesSignature(headers: IncomingHttpHeaders, query: URLSearchParams): boolean {
  return headers.authorization !== undefined || query.has('X-Amz-Algorithm') || query.has('Signature');
}

function accessDenied(resource: string): string {
  const escaped = resource.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Access Denied.</Message><Resource>${escaped}</Resource></Error>`;
}

// Browsers PUT uploads to presigned URLs and read results (a canvas composites an H.264 matte) from the
// web page's origin, the gateway's. As MinIO does by default (MINIO_API_CORS_ALLOW_ORIGIN "*"), any
// origin may: every object request must carry a valid signature anyway, and none uses cookies.
const CORS_ALLOWED_HEADERS = new Set(['content-type', 'range']);
const CORS_EXPOSED_HEADERS = 'ETag, Content-Length, Content-Range, Content-Type, Accept-Ranges';

function answerPreflight(headers: IncomingHttpHeaders, res: ServerResponse): void {
  const requested = String(headers['access-control-request-headers'] ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => CORS_ALLOWED_HEADERS.has(name));
  res
    .writeHead(204, {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, HEAD, PUT',
      ...(requested.length && { 'access-control-allow-headers': requested.join(', ') }),
      'access-control-max-age': '3600',
      vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
    })
    .end();
}

// An S3-compatible server for development and tests (production uses MinIO). It checks signatures and
// refuses unsigned requests (CORS preflights excepted) with 403 AccessDenied, like a private bucket.
// The minio client lists unfinished multipart uploads before a stream upload; s3rver lacks that call,
// so it is answered here with an empty listing. Multipart uploads themselves are answered as S3 does
// (s3-multipart.ts).
export async function startS3Server(options: { directory?: string; port?: number } = {}): Promise<LocalS3Server> {
  const ownDir = !options.directory;
  const directory = options.directory ?? mkdtempSync(join(tmpdir(), 'vj-s3-'));
  const s3rver = new S3rver({ directory, silent: true, resetOnClose: false });
  await s3rver.configureBuckets();
  // Before the router: the multipart calls s3rver lacks or checks less than S3 (s3-multipart.ts).
  s3rver.middleware.splice(s3rver.middleware.length - 1, 0, multipartCompletion(directory, s3rverAuthentication()));
  const handle = s3rver.callback();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://local');
    if (req.headers.origin) {
      if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) return answerPreflight(req.headers, res);
      // On every answer, refusals included, so a page sees the 403 rather than a CORS failure.
      res.setHeader('access-control-allow-origin', '*');
      res.setHeader('access-control-expose-headers', CORS_EXPOSED_HEADERS);
    }
    if (req.method !== 'OPTIONS' && !carriesSignature(req.headers, url.searchParams)) {
      res.writeHead(403, { 'content-type': 'application/xml', 'x-amz-error-code': 'AccessDenied' }).end(accessDenied(url.pathname));
      return;
    }
    if (req.method === 'GET' && url.searchParams.has('uploads')) {
      res.writeHead(200, { 'content-type': 'application/xml' }).end(EMPTY_MULTIPART_LISTING);
      return;
    }
    handle(req, res);
  });
  const port = options.port ?? (await freePort());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${port}`,
    accessKey: 'S3RVER',
    secretKey: 'S3RVER',
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (ownDir) rmSync(directory, { recursive: true, force: true });
    },
  };
}
