import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startS3Server, type LocalS3Server } from '@vj/local-stack';
import { ObjectStorage } from '@vj/storage';
import { fetchUpload } from './fetch-upload';
import { TransloadError } from './transload-error';

const BODY = Buffer.from('not really a video, but bytes all the same');
let s3: LocalS3Server;
let storage: ObjectStorage;
let dir: string;

beforeAll(async () => {
  s3 = await startS3Server();
  storage = new ObjectStorage({ endpoint: s3.endpoint, accessKey: s3.accessKey, secretKey: s3.secretKey, bucket: 'fetch-upload', region: 'us-east-1' });
  await storage.ensureBucket();
  dir = mkdtempSync(join(tmpdir(), 'vj-fetch-upload-'));
  writeFileSync(join(dir, 'source'), BODY);
  await storage.putFile('uploads/acct/up1', join(dir, 'source'), 'video/mp4');
});

afterAll(async () => {
  await s3.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('fetchUpload', () => {
  it('downloads the uploaded object and returns its size and SHA-256', async () => {
    const dest = join(dir, 'in-1');
    const fetched = await fetchUpload(storage, { object_key: 'uploads/acct/up1' }, dest, 1 << 20);
    expect(fetched).toEqual({ path: dest, size: BODY.length, sha256: createHash('sha256').update(BODY).digest('hex') });
    expect(readFileSync(dest).equals(BODY)).toBe(true);
  });

  it('reads an upload pinned to its ETag when the bytes are the same', async () => {
    const etag = createHash('md5').update(BODY).digest('hex');
    const fetched = await fetchUpload(storage, { object_key: 'uploads/acct/up1', etag }, join(dir, 'in-4'), 1 << 20);
    expect(fetched.size).toBe(BODY.length);
  });

  it('fails with input_validation, keeping nothing, when the upload was PUT again after the job was created', async () => {
    const etag = createHash('md5').update(BODY).digest('hex');
    writeFileSync(join(dir, 'replacement'), Buffer.from('a longer video that was never quoted......'));
    await storage.putFile('uploads/acct/up2', join(dir, 'replacement'), 'video/mp4');
    const dest = join(dir, 'in-5');
    const error = await fetchUpload(storage, { object_key: 'uploads/acct/up2', etag }, dest, 1 << 20).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'input_validation', details: [expect.objectContaining({ type: 'upload_changed', field: 'video_url' })] });
    expect(existsSync(dest)).toBe(false);
  });

  it('fails with transload_failed when nothing was uploaded', async () => {
    const error = await fetchUpload(storage, { object_key: 'uploads/acct/never-put' }, join(dir, 'in-2'), 1 << 20).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransloadError);
    expect((error as TransloadError).rule).toBe('upload_missing');
  });

  it('fails with transload_failed when the upload is over the limit', async () => {
    const error = await fetchUpload(storage, { object_key: 'uploads/acct/up1' }, join(dir, 'in-3'), 10).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransloadError);
    expect((error as TransloadError).rule).toBe('too_large');
  });
});
