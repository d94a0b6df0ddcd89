import { existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

// s3rver stores a multipart upload's parts (its FilesystemStore: <bucket>/._S3rver_uploads/<uploadId>/,
// the key in `key`, each part in `<n>` beside its MD5 in `<n>.md5`), and assembles them, but it answers
// neither ListParts nor AbortMultipartUpload, takes parts for an upload that does not exist, and
// assembles whatever part numbers it is given without checking their ETags or sizes. S3 and MinIO do
// all of that; so does this, in front of s3rver's router and behind its signature check, so the
// uploads API is tested against the answers production gives.

// The subset of Koa's context this needs.
export interface MultipartContext {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  params: Record<string, string>;
  status: number;
  body: unknown;
  etag: string;
  request: { body?: unknown };
  req: NodeJS.ReadableStream;
  store: { putObjectMultipart(bucket: string, uploadId: string, parts: { number: number; etag: string }[]): Promise<{ md5: string; size: number }> };
  set(name: string, value: string): void;
}

type Next = () => Promise<unknown>;
type Middleware = (ctx: MultipartContext, next: Next) => Promise<unknown>;

const MAX_PART_NUMBER = 10_000;
// Every part but the last must be at least this large (S3's minimum).
const MIN_PART_BYTES = 5 * 1024 * 1024;
const XMLNS = 'http://s3.amazonaws.com/doc/2006-03-01/';

interface StoredPart {
  number: number;
  size: number;
  md5: string;
  lastModified: Date;
}

class S3Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

// `authenticate`: s3rver's signature check, run before anything is answered here.
export function multipartCompletion(directory: string, authenticate: Middleware): Middleware {
  return async (ctx, next) => {
    const uploadId = typeof ctx.query.uploadId === 'string' ? ctx.query.uploadId : undefined;
    const target = uploadId === undefined ? null : objectOf(ctx.path);
    if (uploadId === undefined || !target) return next();
    ctx.params = { ...ctx.params, bucket: target.bucket, key: target.key };
    const uploadDir = join(directory, target.bucket, '._S3rver_uploads', uploadId);
    return authenticate(ctx, async () => {
      try {
        if (!/^[0-9a-f]{32}$/.test(uploadId) || !existsSync(uploadDir) || (await readFile(join(uploadDir, 'key'), 'utf8')) !== target.key) {
          throw new S3Refusal(404, 'NoSuchUpload', 'The specified multipart upload does not exist.');
        }
        if (ctx.method === 'PUT') {
          const partNumber = Number(ctx.query.partNumber);
          if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > MAX_PART_NUMBER) {
            throw new S3Refusal(400, 'InvalidArgument', `Part number must be an integer between 1 and ${MAX_PART_NUMBER}, inclusive`);
          }
          // s3rver writes a part's MD5 once its bytes are all in: a PUT cut off leaves no MD5, and the
          // part is not listed (S3 stores no part it did not receive whole; it would keep an earlier
          // one, which here must be sent again).
          await rm(join(uploadDir, `${partNumber}.md5`), { force: true });
          return next();
        }
        if (ctx.method === 'GET') return listParts(ctx, target, uploadId, await partsOf(uploadDir));
        if (ctx.method === 'DELETE') {
          await rm(uploadDir, { recursive: true, force: true });
          ctx.status = 204;
          ctx.body = '';
          return;
        }
        if (ctx.method === 'POST') return await complete(ctx, directory, target, uploadId, await partsOf(uploadDir));
        return next();
      } catch (error) {
        if (!(error instanceof S3Refusal)) throw error;
        ctx.status = error.status;
        ctx.set('content-type', 'application/xml');
        ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${error.code}</Code><Message>${escape(error.message)}</Message><UploadId>${escape(uploadId)}</UploadId></Error>`;
      }
    });
  };
}

// Path-style /<bucket>/<key>.
function objectOf(path: string): { bucket: string; key: string } | null {
  const match = /^\/([^/]+)\/(.+)$/.exec(path);
  return match ? { bucket: match[1]!, key: decodeURIComponent(match[2]!) } : null;
}

async function partsOf(uploadDir: string): Promise<StoredPart[]> {
  const files = await readdir(uploadDir);
  const names = files.filter((name) => /^\d+$/.test(name) && files.includes(`${name}.md5`));
  const parts = await Promise.all(
    names.map(async (name) => {
      const info = await stat(join(uploadDir, name));
      return { number: Number(name), size: info.size, md5: (await readFile(join(uploadDir, `${name}.md5`), 'utf8')).trim(), lastModified: info.mtime };
    }),
  );
  return parts.sort((a, b) => a.number - b.number);
}

function listParts(ctx: MultipartContext, target: { bucket: string; key: string }, uploadId: string, parts: StoredPart[]): void {
  const items = parts
    .map((part) => `<Part><PartNumber>${part.number}</PartNumber><LastModified>${part.lastModified.toISOString()}</LastModified><ETag>"${part.md5}"</ETag><Size>${part.size}</Size></Part>`)
    .join('');
  ctx.set('content-type', 'application/xml');
  ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<ListPartsResult xmlns="${XMLNS}"><Bucket>${escape(target.bucket)}</Bucket><Key>${escape(target.key)}</Key><UploadId>${uploadId}</UploadId><MaxParts>${MAX_PART_NUMBER}</MaxParts><IsTruncated>false</IsTruncated>${items}</ListPartsResult>`;
}

// CompleteMultipartUpload as S3 checks it: the parts named in ascending order, each stored with that
// ETag, every one but the last at least MIN_PART_BYTES.
async function complete(ctx: MultipartContext, directory: string, target: { bucket: string; key: string }, uploadId: string, stored: StoredPart[]): Promise<void> {
  const named = [...(await readBody(ctx.req)).matchAll(/<Part>\s*([\s\S]*?)\s*<\/Part>/g)].map(([, part]) => ({
    number: Number(/<PartNumber>\s*(\d+)\s*<\/PartNumber>/.exec(part!)?.[1]),
    etag: (/<ETag>([\s\S]*?)<\/ETag>/.exec(part!)?.[1] ?? '').replace(/&quot;|&#34;|"/g, '').trim(),
  }));
  if (named.length === 0) throw new S3Refusal(400, 'MalformedXML', 'The XML you provided was not well-formed or did not validate against our published schema.');
  const byNumber = new Map(stored.map((part) => [part.number, part]));
  for (const [index, part] of named.entries()) {
    if (index > 0 && part.number <= named[index - 1]!.number) throw new S3Refusal(400, 'InvalidPartOrder', 'The list of parts was not in ascending order.');
    const found = byNumber.get(part.number);
    if (!found || found.md5 !== part.etag) throw new S3Refusal(400, 'InvalidPart', `One or more of the specified parts could not be found (part ${part.number}).`);
    if (index < named.length - 1 && found.size < MIN_PART_BYTES) throw new S3Refusal(400, 'EntityTooSmall', `Your proposed upload is smaller than the minimum allowed size (part ${part.number}).`);
  }
  await ctx.store.putObjectMultipart(target.bucket, uploadId, named);
  // S3's ETag of an object assembled from parts: the MD5 of the parts' MD5s, then their number. It is
  // not the MD5 of the bytes, as a single PUT's is, and a reader must not take it for one.
  const etag = `${createHash('md5').update(Buffer.concat(named.map((part) => Buffer.from(part.etag, 'hex')))).digest('hex')}-${named.length}`;
  const keyParts = target.key.split('/');
  const name = keyParts.pop()!;
  await writeFile(join(directory, target.bucket, ...keyParts, `${name}._S3rver_object.md5`), etag);
  ctx.set('content-type', 'application/xml');
  ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<CompleteMultipartUploadResult xmlns="${XMLNS}"><Location>${escape(ctx.path)}</Location><Bucket>${escape(target.bucket)}</Bucket><Key>${escape(target.key)}</Key><ETag>"${etag}"</ETag></CompleteMultipartUploadResult>`;
}

async function readBody(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

function escape(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
