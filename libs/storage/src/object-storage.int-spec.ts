import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startS3Server, type LocalS3Server } from '@vj/local-stack';
import { MultipartRefusedError, MultipartUploadNotFoundError, ObjectNotFoundError, ObjectStorage, ObjectTooLargeError } from './object-storage';

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

  describe('multipart uploads', () => {
    const PART = 5 * 1024 * 1024;
    const putPart = async (key: string, uploadId: string, partNumber: number, body: Buffer) => {
      const response = await fetch(await storage.presignPart(key, uploadId, partNumber, body.length, 60), { method: 'PUT', body });
      return { status: response.status, etag: (response.headers.get('etag') ?? '').replace(/"/g, '') };
    };
    const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');

    it('takes parts PUT to URLs signed for each one, lists them, and assembles them in order into the object', async () => {
      const key = 'uploads/multi/assembled';
      const first = Buffer.alloc(PART, 1);
      const last = Buffer.from('the end');
      const uploadId = await storage.startMultipart(key, 'video/mp4');
      // Out of order, as parallel clients send them.
      const second = await putPart(key, uploadId, 2, last);
      const one = await putPart(key, uploadId, 1, first);
      expect([one.status, second.status]).toEqual([200, 200]);
      expect(await storage.listParts(key, uploadId)).toEqual([
        { partNumber: 1, size: PART, etag: md5(first) },
        { partNumber: 2, size: last.length, etag: md5(last) },
      ]);
      const etag = await storage.completeMultipart(key, uploadId, [{ partNumber: 2, etag: second.etag }, { partNumber: 1, etag: one.etag }]);
      // S3's ETag of an assembled object is not the MD5 of its bytes.
      expect(etag).toMatch(/^[0-9a-f]{32}-2$/);
      expect(await storage.stat(key)).toEqual({ size: PART + last.length, contentType: 'video/mp4', etag });
      const { md5: downloaded } = await storage.downloadToFile(key, join(dir, 'assembled.bin'), 2 * PART);
      expect(downloaded).toBe(md5(Buffer.concat([first, last])));
      await expect(storage.listParts(key, uploadId)).rejects.toBeInstanceOf(MultipartUploadNotFoundError);
    });

    it('refuses a part of another size than signed, a part number out of 1..10000, and a part for an upload that is not open', async () => {
      const key = 'uploads/multi/refused';
      const uploadId = await storage.startMultipart(key, 'video/mp4');
      const url = await storage.presignPart(key, uploadId, 1, 5, 60);
      expect((await fetch(url, { method: 'PUT', body: 'bytes and more' })).status).toBe(403);
      for (const partNumber of [0, -1, 10_001]) expect((await putPart(key, uploadId, partNumber, Buffer.from('x'))).status).toBe(400);
      expect((await putPart(key, 'f'.repeat(32), 1, Buffer.from('x'))).status).toBe(404);
      expect(await storage.listParts(key, uploadId)).toEqual([]);
    });

    it('refuses to assemble a missing part, a forged ETag, or a part under 5 MiB that is not the last, and keeps the parts', async () => {
      const key = 'uploads/multi/checked';
      const uploadId = await storage.startMultipart(key, 'video/mp4');
      const one = await putPart(key, uploadId, 1, Buffer.from('small'));
      const two = await putPart(key, uploadId, 2, Buffer.from('tail'));
      for (const parts of [
        [{ partNumber: 1, etag: one.etag }, { partNumber: 3, etag: two.etag }],
        [{ partNumber: 1, etag: 'f'.repeat(32) }],
        [{ partNumber: 1, etag: one.etag }, { partNumber: 2, etag: two.etag }],
      ]) {
        await expect(storage.completeMultipart(key, uploadId, parts)).rejects.toBeInstanceOf(MultipartRefusedError);
      }
      expect(await storage.stat(key)).toBeNull();
      expect((await storage.listParts(key, uploadId)).map((part) => part.partNumber)).toEqual([1, 2]);
      // The last part alone may be small.
      await storage.completeMultipart(key, uploadId, [{ partNumber: 1, etag: one.etag }]);
      expect((await storage.stat(key))?.size).toBe(5);
    });

    it('lists no part whose PUT was cut off half way', async () => {
      const key = 'uploads/multi/cut';
      const uploadId = await storage.startMultipart(key, 'video/mp4');
      const url = new URL(await storage.presignPart(key, uploadId, 1, PART, 60));
      await new Promise<void>((resolve) => {
        const put = httpRequest(url, { method: 'PUT', headers: { 'content-length': PART } });
        put.on('error', () => resolve());
        put.write(Buffer.alloc(PART / 2, 7), () => setTimeout(() => put.destroy(), 50));
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await storage.listParts(key, uploadId)).toEqual([]);
    });

    it('aborts an upload, freeing its parts: it is then not found', async () => {
      const key = 'uploads/multi/aborted';
      const uploadId = await storage.startMultipart(key, 'video/mp4');
      await putPart(key, uploadId, 1, Buffer.from('bytes'));
      await storage.abortMultipart(key, uploadId);
      await expect(storage.listParts(key, uploadId)).rejects.toBeInstanceOf(MultipartUploadNotFoundError);
      await expect(storage.abortMultipart(key, uploadId)).rejects.toBeInstanceOf(MultipartUploadNotFoundError);
      expect((await putPart(key, uploadId, 1, Buffer.from('bytes'))).status).toBe(404);
      expect(await storage.stat(key)).toBeNull();
    });

    it('refuses the multipart calls unsigned or signed with another secret, as a private bucket does', async () => {
      const key = 'uploads/multi/unsigned';
      const uploadId = await storage.startMultipart(key, 'video/mp4');
      const url = `${s3.endpoint}/video-jobs/${key}?uploadId=${uploadId}`;
      for (const method of ['GET', 'DELETE', 'POST']) expect((await fetch(url, { method })).status).toBe(403);
      const forger = new ObjectStorage({ endpoint: s3.endpoint, accessKey: s3.accessKey, secretKey: 'not the secret', bucket: 'video-jobs', region: 'us-east-1' });
      await expect(forger.listParts(key, uploadId)).rejects.toMatchObject({ code: 'SignatureDoesNotMatch' });
      await expect(forger.abortMultipart(key, uploadId)).rejects.toMatchObject({ code: 'SignatureDoesNotMatch' });
      expect(await storage.listParts(key, uploadId)).toEqual([]);
    });
  });
});
