import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startS3Server, type LocalS3Server } from '@vj/local-stack';
import { ObjectNotFoundError, ObjectStorage, ObjectTooLargeError } from './object-storage';

describe('ObjectStorage against an S3 server', () => {
  let s3: LocalS3Server;
  let storage: ObjectStorage;
  let dir: string;

  beforeAll(async () => {
    s3 = await startS3Server();
    storage = new ObjectStorage({ endpoint: s3.endpoint, accessKey: s3.accessKey, secretKey: s3.secretKey, bucket: 'video-jobs', region: 'us-east-1' });
    await storage.ensureBucket();
    await storage.ensureBucket();
    dir = mkdtempSync(join(tmpdir(), 'vj-storage-'));
  });

  afterAll(async () => {
    await s3.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores a file, reports its size and type, and downloads it back', async () => {
    writeFileSync(join(dir, 'in.bin'), 'hello world');
    await storage.putFile('results/a/in.bin', join(dir, 'in.bin'), 'video/mp4');
    const md5 = createHash('md5').update('hello world').digest('hex');
    expect(await storage.stat('results/a/in.bin')).toEqual({ size: 11, contentType: 'video/mp4', etag: md5 });
    const sha256 = createHash('sha256').update('hello world').digest('hex');
    expect(await storage.downloadToFile('results/a/in.bin', join(dir, 'out.bin'), 100)).toEqual({ size: 11, md5, sha256 });
    expect(readFileSync(join(dir, 'out.bin'), 'utf8')).toBe('hello world');
  });

  it('lists every object under a prefix with when it was written', async () => {
    writeFileSync(join(dir, 'a.bin'), 'a');
    for (const key of ['listing/x/1', 'listing/x/2', 'listing/y/3', 'elsewhere/4']) await storage.putFile(key, join(dir, 'a.bin'), 'video/mp4');
    const listed = [];
    for await (const item of storage.list('listing/')) listed.push(item);
    expect(listed.map((item) => item.key).sort()).toEqual(['listing/x/1', 'listing/x/2', 'listing/y/3']);
    expect(listed.every((item) => Math.abs(item.lastModified.getTime() - Date.now()) < 60_000)).toBe(true);
  });

  it('answers null for a missing object, and a download of it fails as not found', async () => {
    expect(await storage.stat('nope')).toBeNull();
    await expect(storage.downloadToFile('nope', join(dir, 'nope.bin'), 5)).rejects.toBeInstanceOf(ObjectNotFoundError);
  });

  it('refuses to download an object over the size limit', async () => {
    await expect(storage.downloadToFile('results/a/in.bin', join(dir, 'big.bin'), 5)).rejects.toBeInstanceOf(ObjectTooLargeError);
  });

  it('presigns a PUT the client can use and a GET that names the file', async () => {
    const put = await storage.presignPut('uploads/x', 60, { contentLength: 5, contentType: 'video/mp4' });
    expect(new URL(put).searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    expect((await fetch(put, { method: 'PUT', body: 'bytes', headers: { 'content-type': 'video/mp4' } })).status).toBe(200);
    const get = await fetch(await storage.presignGet('uploads/x', 60, 'clip.mp4', 'video/mp4'));
    expect(await get.text()).toBe('bytes');
    expect(get.headers.get('content-disposition')).toBe('attachment; filename="clip.mp4"');
  });

  it.each([
    ['a longer body', 'bytes and more', 'video/mp4'],
    ['a shorter body', 'byt', 'video/mp4'],
    ['another Content-Type', 'bytes', 'video/webm'],
  ])('refuses a presigned PUT with %s than it was signed for, storing nothing', async (_name, body, contentType) => {
    const put = await storage.presignPut('uploads/declared', 60, { contentLength: 5, contentType: 'video/mp4' });
    expect((await fetch(put, { method: 'PUT', body, headers: { 'content-type': contentType } })).status).toBe(403);
    expect(await storage.stat('uploads/declared')).toBeNull();
  });
});
