import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startS3Server, type LocalS3Server } from '@vj/local-stack';
import { ObjectStorage, ObjectTooLargeError } from './object-storage';

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
    expect(await storage.stat('results/a/in.bin')).toEqual({ size: 11, contentType: 'video/mp4' });
    await storage.downloadToFile('results/a/in.bin', join(dir, 'out.bin'), 100);
    expect(readFileSync(join(dir, 'out.bin'), 'utf8')).toBe('hello world');
  });

  it('answers null for a missing object', async () => {
    expect(await storage.stat('nope')).toBeNull();
  });

  it('refuses to download an object over the size limit', async () => {
    await expect(storage.downloadToFile('results/a/in.bin', join(dir, 'big.bin'), 5)).rejects.toBeInstanceOf(ObjectTooLargeError);
  });

  it('presigns a PUT the client can use and a GET that names the file', async () => {
    const put = await storage.presignPut('uploads/x', 60);
    expect((await fetch(put, { method: 'PUT', body: 'bytes' })).status).toBe(200);
    const get = await fetch(await storage.presignGet('uploads/x', 60, 'clip.mp4', 'video/mp4'));
    expect(await get.text()).toBe('bytes');
    expect(get.headers.get('content-disposition')).toBe('attachment; filename="clip.mp4"');
  });
});
