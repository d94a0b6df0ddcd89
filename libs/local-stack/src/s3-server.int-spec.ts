import { Client } from 'minio';
import { startS3Server, type LocalS3Server } from './s3-server';

// The local S3 server behaves like MinIO with a private bucket: only signed requests get anywhere.
describe('local S3 server', () => {
  const bucket = 'private-bucket';
  const key = 'uploads/acct-1/upload-1';
  let s3: LocalS3Server;
  let client: Client;

  beforeAll(async () => {
    s3 = await startS3Server();
    const url = new URL(s3.endpoint);
    client = new Client({
      endPoint: url.hostname,
      port: Number(url.port),
      useSSL: false,
      accessKey: s3.accessKey,
      secretKey: s3.secretKey,
      region: 'us-east-1',
      pathStyle: true,
    });
    await client.makeBucket(bucket, 'us-east-1');
    await client.putObject(bucket, key, Buffer.from('secret bytes'));
  });

  afterAll(() => s3.stop());

  async function anonymous(path: string, init: RequestInit = {}): Promise<{ status: number; body: string }> {
    const res = await fetch(`${s3.endpoint}${path}`, init);
    return { status: res.status, body: await res.text() };
  }

  it('refuses an anonymous GET of an object with 403 AccessDenied', async () => {
    const res = await anonymous(`/${bucket}/${key}`);
    expect(res.status).toBe(403);
    expect(res.body).toContain('<Code>AccessDenied</Code>');
    expect(res.body).not.toContain('secret bytes');
    expect((await fetch(`${s3.endpoint}/${bucket}/${key}`, { method: 'HEAD' })).status).toBe(403);
  });

  it('refuses an anonymous listing of the bucket, and of the buckets', async () => {
    for (const path of [`/${bucket}`, `/${bucket}/?list-type=2&prefix=uploads/`, `/${bucket}?uploads`, '/']) {
      const res = await anonymous(path);
      expect({ path, status: res.status, denied: res.body.includes('<Code>AccessDenied</Code>') }).toEqual({ path, status: 403, denied: true });
      expect(res.body).not.toContain(key);
    }
  });

  it('refuses an anonymous PUT or DELETE and leaves the object as it was', async () => {
    expect((await anonymous(`/${bucket}/${key}`, { method: 'PUT', body: 'overwritten' })).status).toBe(403);
    expect((await anonymous(`/${bucket}/${key}`, { method: 'DELETE' })).status).toBe(403);
    const stored = await client.getObject(bucket, key);
    expect(Buffer.concat(await stored.toArray()).toString()).toBe('secret bytes');
  });

  it('refuses a signature parameter that does not match the request', async () => {
    // Without X-Amz-Algorithm s3rver would not check a signature at all: the front refuses it.
    expect((await anonymous(`/${bucket}/${key}?X-Amz-Signature=forged`)).status).toBe(403);
    const presigned = new URL(await client.presignedGetObject(bucket, key, 60));
    presigned.searchParams.set('X-Amz-Signature', '0'.repeat(64));
    expect((await fetch(presigned)).status).toBe(403);
  });

  it('serves signed requests: get, stat and list', async () => {
    expect((await client.statObject(bucket, key)).size).toBe(12);
    const listed: string[] = [];
    for await (const item of client.listObjectsV2(bucket, 'uploads/', true)) if (item.name) listed.push(item.name);
    expect(listed).toEqual([key]);
    expect(await client.bucketExists(bucket)).toBe(true);
  });

  it('serves presigned GET and PUT URLs', async () => {
    const get = await fetch(await client.presignedGetObject(bucket, key, 60));
    expect(get.status).toBe(200);
    expect(await get.text()).toBe('secret bytes');

    const put = await fetch(await client.presignedPutObject(bucket, 'uploads/acct-1/upload-2', 60), { method: 'PUT', body: 'new bytes' });
    expect(put.status).toBe(200);
    const stored = await client.getObject(bucket, 'uploads/acct-1/upload-2');
    expect(Buffer.concat(await stored.toArray()).toString()).toBe('new bytes');
  });

  it('answers CORS preflights and lets a page on another origin PUT and read with a signature, as MinIO does', async () => {
    const origin = 'http://localhost:3000';
    const putUrl = await client.presignedPutObject(bucket, 'uploads/acct-1/upload-3', 60);
    const preflight = await fetch(putUrl, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'content-type' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('PUT');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type');

    const put = await fetch(putUrl, { method: 'PUT', body: 'from a page', headers: { origin, 'content-type': 'video/mp4' } });
    expect(put.status).toBe(200);
    expect(put.headers.get('access-control-allow-origin')).toBe('*');
    const get = await fetch(await client.presignedGetObject(bucket, 'uploads/acct-1/upload-3', 60), { headers: { origin } });
    expect(await get.text()).toBe('from a page');
    expect(get.headers.get('access-control-allow-origin')).toBe('*');
    // A refusal is readable too (the page shows a 403, not a network error), and still a refusal.
    const denied = await fetch(`${s3.endpoint}/${bucket}/${key}`, { headers: { origin } });
    expect(denied.status).toBe(403);
    expect(denied.headers.get('access-control-allow-origin')).toBe('*');
  });
});
