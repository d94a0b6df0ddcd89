import request from 'supertest';
import { uploadVideoUrl } from '@vj/contracts';
import type { CreatedAccount } from '../identity';
import { bearer, expectJob, expectSchema, startGateway, TEST_UPLOAD_MAX_BYTES, TEST_UPLOAD_MULTIPART_MAX_BYTES, type GatewayHarness } from '../../test/gateway-harness';

describe('POST /v1/uploads', () => {
  let gw: GatewayHarness;
  let alice: CreatedAccount;

  beforeAll(async () => {
    gw = await startGateway('gateway_uploads_api', { UPLOAD_URL_TTL_SECONDS: '600' });
    alice = await gw.newAccount('alice');
  });

  afterAll(() => gw.stop());

  const upload = (body: object, account = alice) => request(gw.server).post('/v1/uploads').set(bearer(account)).send(body);

  it('answers 201 with a presigned PUT URL that a job can then use through video_url', async () => {
    const before = Date.now();
    const res = await upload({ file_name: 'clip.mp4', content_type: 'video/mp4', file_size: 11 });
    expect(res.status).toBe(201);
    expectSchema('Upload', res.body);
    expect(res.body.video_url).toBe(uploadVideoUrl(res.body.upload_id));
    const expiresIn = Date.parse(res.body.expires_at) - before;
    expect(expiresIn).toBeGreaterThan(590_000);
    expect(expiresIn).toBeLessThanOrEqual(601_000);
    expect(new URL(res.body.upload_url).searchParams.get('X-Amz-Expires')).toBe('600');

    expect((await fetch(res.body.upload_url, { method: 'PUT', body: 'video bytes', headers: { 'content-type': 'video/mp4' } })).status).toBe(200);
    const job = await request(gw.server).post('/v1/clean-audio-video').set(bearer(alice)).send({ video_url: res.body.video_url });
    expect(job.status).toBe(202);
    expectJob('clean-audio-video', job.body);
  });

  it.each([
    ['more bytes than file_size', 'video bytes and then some more', 'video/mp4'],
    ['fewer bytes than file_size', 'video', 'video/mp4'],
    ['another Content-Type than content_type', 'video bytes', 'text/html'],
    ['no Content-Type', 'video bytes', undefined],
  ])('binds the upload to its declaration: S3 refuses a PUT of %s and nothing is stored', async (_name, body, contentType) => {
    const res = await upload({ file_name: 'clip.mp4', content_type: 'video/mp4', file_size: 11 });
    const put = await fetch(res.body.upload_url, { method: 'PUT', body, headers: contentType ? { 'content-type': contentType } : {} });
    expect(put.status).toBe(403);
    const job = await request(gw.server).post('/v1/clean-audio-video').set(bearer(alice)).send({ video_url: res.body.video_url });
    expect(job.status).toBe(422);
    expect(job.body.error.details[0].field).toBe('video_url');
  });

  it('keeps an upload to the account that made it', async () => {
    const bob = await gw.newAccount('bob');
    const res = await upload({ file_name: 'clip.mp4', content_type: 'video/mp4', file_size: 5 }, bob);
    expect((await fetch(res.body.upload_url, { method: 'PUT', body: 'bytes', headers: { 'content-type': 'video/mp4' } })).status).toBe(200);
    const job = await request(gw.server).post('/v1/clean-audio-video').set(bearer(alice)).send({ video_url: res.body.video_url });
    expect(job.status).toBe(422);
    expectSchema('RequestError', job.body);
    expect(job.body.error.details[0].field).toBe('video_url');
  });

  it('makes a file_size over UPLOAD_MAX_BYTES multipart, and answers 413 where one PUT is asked for it or it passes UPLOAD_MULTIPART_MAX_BYTES', async () => {
    const big = await upload({ file_name: 'big.mp4', content_type: 'video/mp4', file_size: TEST_UPLOAD_MAX_BYTES + 1 });
    expect(big.status).toBe(201);
    expectSchema('Upload', big.body);
    expect(big.body).toMatchObject({ parts: { count: 1 } });
    expect(big.body.upload_url).toBeUndefined();
    const small = await upload({ file_name: 'small.mp4', content_type: 'video/mp4', file_size: TEST_UPLOAD_MAX_BYTES });
    expect(small.body.upload_url).toEqual(expect.any(String));
    for (const declaration of [
      { file_name: 'big.mp4', content_type: 'video/mp4', file_size: TEST_UPLOAD_MAX_BYTES + 1, multipart: false },
      { file_name: 'huge.mp4', content_type: 'video/mp4', file_size: TEST_UPLOAD_MULTIPART_MAX_BYTES + 1 },
      { file_name: 'huge.mp4', content_type: 'video/mp4', file_size: TEST_UPLOAD_MULTIPART_MAX_BYTES + 1, multipart: true },
    ]) {
      const res = await upload(declaration);
      expect(res.status).toBe(413);
      expectSchema('RequestError', res.body);
      expect(res.body.error.code).toBe('payload_too_large');
    }
  });

  it.each([
    ['a missing file_name', { content_type: 'video/mp4', file_size: 1 }, ['file_name']],
    ['a file_name with a slash', { file_name: '../x.mp4', content_type: 'video/mp4', file_size: 1 }, ['file_name']],
    ['a text content_type', { file_name: 'x.txt', content_type: 'text/plain', file_size: 1 }, ['content_type']],
    ['an image type no background takes (a GIF)', { file_name: 'x.gif', content_type: 'image/gif', file_size: 1 }, ['content_type']],
    ['an SVG image', { file_name: 'x.svg', content_type: 'image/svg+xml', file_size: 1 }, ['content_type']],
    ['a fractional file_size', { file_name: 'x.mp4', content_type: 'video/mp4', file_size: 1.5 }, ['file_size']],
    ['a zero file_size', { file_name: 'x.mp4', content_type: 'video/mp4', file_size: 0 }, ['file_size']],
    ['an unknown property', { file_name: 'x.mp4', content_type: 'video/mp4', file_size: 1, checksum: 'abc' }, ['checksum']],
  ])('answers %s with 422 naming the field', async (_name, body, fields) => {
    const res = await upload(body);
    expect(res.status).toBe(422);
    expectSchema('RequestError', res.body);
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(fields);
  });
});
