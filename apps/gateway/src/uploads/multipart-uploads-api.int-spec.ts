import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { uploadObjectKey, uploadVideoUrl } from '@vj/contracts';
import { MultipartUploadNotFoundError } from '@vj/storage';
import { HousekeepingLifecycle } from '../app/housekeeping.lifecycle';
import type { CreatedAccount } from '../identity';
import { UploadsRepository } from './uploads.repository';
import { bearer, expectJob, expectSchema, startGateway, type GatewayHarness } from '../../test/gateway-harness';

const MIB = 1024 ** 2;
// Parts of S3's smallest size: a file of 11 MiB is three parts, 5, 5 and 1 MiB.
const FILE = Buffer.concat([Buffer.alloc(5 * MIB, 1), Buffer.alloc(5 * MIB, 2), Buffer.alloc(MIB, 3)]);

describe('multipart uploads through the API (decision 0099)', () => {
  let gw: GatewayHarness;
  let alice: CreatedAccount;
  let bob: CreatedAccount;
  let dir: string;

  beforeAll(async () => {
    gw = await startGateway('gateway_multipart_uploads', { UPLOAD_MAX_BYTES: String(64 * MIB), UPLOAD_MULTIPART_MAX_BYTES: String(64 * MIB), UPLOAD_PART_BYTES: String(5 * MIB), UPLOAD_URL_TTL_SECONDS: '600' });
    alice = await gw.newAccount('alice');
    bob = await gw.newAccount('bob');
    dir = mkdtempSync(join(tmpdir(), 'vj-multipart-'));
  });

  afterAll(async () => {
    await gw.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const api = (account: CreatedAccount) => ({
    declare: (body: object) => request(gw.server).post('/v1/uploads').set(bearer(account)).send(body),
    get: (id: string) => request(gw.server).get(`/v1/uploads/${id}`).set(bearer(account)),
    parts: (id: string, partNumbers: unknown) => request(gw.server).post(`/v1/uploads/${id}/parts`).set(bearer(account)).send({ part_numbers: partNumbers }),
    complete: (id: string) => request(gw.server).post(`/v1/uploads/${id}/complete`).set(bearer(account)).send(),
    abort: (id: string) => request(gw.server).delete(`/v1/uploads/${id}`).set(bearer(account)),
  });
  const declareMultipart = async (account = alice, fileSize = FILE.length) => {
    const res = await api(account).declare({ file_name: 'camera.mp4', content_type: 'video/mp4', file_size: fileSize, multipart: true });
    expect(res.status).toBe(201);
    expectSchema('Upload', res.body);
    return res.body as { upload_id: string; video_url: string; parts: { part_size: number; count: number } };
  };
  const bytesOf = (partNumber: number) => FILE.subarray((partNumber - 1) * 5 * MIB, Math.min(FILE.length, partNumber * 5 * MIB));
  // Signs the parts' URLs and PUTs each one's bytes; returns the PUTs' statuses.
  const send = async (uploadId: string, partNumbers: number[]) => {
    const signed = await api(alice).parts(uploadId, partNumbers);
    expect(signed.status).toBe(200);
    expectSchema('UploadPartUrls', signed.body);
    const parts = signed.body.parts as { part_number: number; size: number; url: string }[];
    return Promise.all(parts.map(async (part) => (await fetch(part.url, { method: 'PUT', body: bytesOf(part.part_number) })).status));
  };

  it('takes a file in parts, tells which are stored, refuses to complete it with one missing, then completes it for a job to use', async () => {
    const started = Date.now();
    const upload = await declareMultipart();
    expect(upload).not.toHaveProperty('upload_url');
    expect(upload.parts).toEqual({ part_size: 5 * MIB, count: 3 });
    expect(upload.video_url).toBe(uploadVideoUrl(upload.upload_id));

    const signed = await api(alice).parts(upload.upload_id, [3, 1]);
    expect(signed.body.parts.map((part: { part_number: number; size: number }) => [part.part_number, part.size])).toEqual([
      [3, MIB],
      [1, 5 * MIB],
    ]);
    expect(Date.parse(signed.body.expires_at) - started).toBeGreaterThan(590_000);
    expect(await send(upload.upload_id, [3, 1])).toEqual([200, 200]);

    // The client died here: what it sent is listed, and what it did not is named.
    const state = await api(alice).get(upload.upload_id);
    expect(state.status).toBe(200);
    expectSchema('UploadState', state.body);
    expect(state.body).toMatchObject({ status: 'pending', file_size: FILE.length, parts: upload.parts });
    expect(state.body.parts_uploaded).toEqual([
      { part_number: 1, size: 5 * MIB, etag: createHash('md5').update(bytesOf(1)).digest('hex') },
      { part_number: 3, size: MIB, etag: createHash('md5').update(bytesOf(3)).digest('hex') },
    ]);
    const early = await api(alice).complete(upload.upload_id);
    expect(early.status).toBe(422);
    expectSchema('RequestError', early.body);
    expect(early.body.error.details).toEqual([expect.objectContaining({ field: 'parts', message: expect.stringContaining('part 2 has not been uploaded') })]);
    const tooSoon = await request(gw.server).post('/v1/clean-audio-video').set(bearer(alice)).send({ video_url: upload.video_url });
    expect(tooSoon.status).toBe(422);
    expect(tooSoon.body.error.details[0]).toMatchObject({ field: 'video_url', message: expect.stringContaining('complete') });

    // Resumed: only the missing part is sent.
    expect(await send(upload.upload_id, [2])).toEqual([200]);
    const completed = await api(alice).complete(upload.upload_id);
    expect(completed.status).toBe(200);
    expectSchema('UploadState', completed.body);
    expect(completed.body).toMatchObject({ status: 'complete', parts_uploaded: [] });
    // Replayed: the same answer, nothing changed.
    const again = await api(alice).complete(upload.upload_id);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(completed.body);

    const key = uploadObjectKey(alice.account_id, upload.upload_id);
    const { md5 } = await gw.storage.downloadToFile(key, join(dir, 'assembled.mp4'), 64 * MIB);
    expect(md5).toBe(createHash('md5').update(FILE).digest('hex'));
    const job = await request(gw.server).post('/v1/clean-audio-video').set(bearer(alice)).send({ video_url: upload.video_url });
    expect(job.status).toBe(202);
    expectJob('clean-audio-video', job.body);
    // Complete now: no part can change.
    expect((await api(alice).parts(upload.upload_id, [1])).status).toBe(409);
  });

  it('refuses a part PUT of another size than its URL was signed for, storing nothing', async () => {
    const upload = await declareMultipart();
    const signed = await api(alice).parts(upload.upload_id, [3]);
    const put = await fetch(signed.body.parts[0].url, { method: 'PUT', body: bytesOf(2) });
    expect(put.status).toBe(403);
    expect((await api(alice).get(upload.upload_id)).body.parts_uploaded).toEqual([]);
  });

  it.each([
    ['part 0', [0]],
    ['a negative part', [-1]],
    ['part 10,001', [10_001]],
    ['no part', []],
    ['a part twice', [1, 1]],
    ['a fractional part', [1.5]],
    ['a string', ['1']],
    ['more than 1,000 parts at once', Array.from({ length: 1001 }, (_, i) => i + 1)],
  ])('answers a request for the URLs of %s with 422 naming part_numbers', async (_name, partNumbers) => {
    const upload = await declareMultipart();
    const res = await api(alice).parts(upload.upload_id, partNumbers);
    expect(res.status).toBe(422);
    expectSchema('RequestError', res.body);
    expect(res.body.error.details.map((detail: { field: string }) => detail.field)).toEqual(['part_numbers']);
  });

  it('answers a part past the last with 422 naming it', async () => {
    const upload = await declareMultipart();
    const res = await api(alice).parts(upload.upload_id, [2, 4]);
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([expect.objectContaining({ field: 'part_numbers', message: expect.stringContaining('no part 4') })]);
  });

  it("keeps an upload to its account: another account's upload id and a malformed one are 404 everywhere", async () => {
    const upload = await declareMultipart();
    const bobs = api(bob);
    for (const res of [await bobs.get(upload.upload_id), await bobs.parts(upload.upload_id, [1]), await bobs.complete(upload.upload_id), await bobs.abort(upload.upload_id)]) {
      expect(res.status).toBe(404);
      expectSchema('RequestError', res.body);
    }
    expect((await api(alice).get('not-a-uuid')).status).toBe(404);
    expect((await api(alice).get(upload.upload_id)).status).toBe(200);
  });

  it('aborts an upload: its parts are freed, a URL signed before takes nothing, and its id names nothing', async () => {
    const upload = await declareMultipart();
    const signed = await api(alice).parts(upload.upload_id, [1, 3]);
    expect(await send(upload.upload_id, [1])).toEqual([200]);
    const aborted = await api(alice).abort(upload.upload_id);
    expect(aborted.status).toBe(204);
    expect((await fetch(signed.body.parts[1].url, { method: 'PUT', body: bytesOf(3) })).status).toBe(404);
    expect((await api(alice).get(upload.upload_id)).status).toBe(404);
    expect((await api(alice).abort(upload.upload_id)).status).toBe(404);
  });

  it('has no parts, completion or abort for an upload by one PUT: 409', async () => {
    const single = await api(alice).declare({ file_name: 'clip.mp4', content_type: 'video/mp4', file_size: 5 });
    expect(single.status).toBe(201);
    expectSchema('Upload', single.body);
    expect(single.body).not.toHaveProperty('parts');
    for (const res of [await api(alice).parts(single.body.upload_id, [1]), await api(alice).complete(single.body.upload_id), await api(alice).abort(single.body.upload_id)]) {
      expect(res.status).toBe(409);
      expectSchema('RequestError', res.body);
    }
    const state = await api(alice).get(single.body.upload_id);
    expect(state.body).toMatchObject({ status: 'pending', parts: null, parts_uploaded: [] });
    expect((await fetch(single.body.upload_url, { method: 'PUT', body: 'bytes', headers: { 'content-type': 'video/mp4' } })).status).toBe(200);
    expect((await api(alice).get(single.body.upload_id)).body.status).toBe('complete');
  });

  it('answers 413 for a multipart declaration over UPLOAD_MULTIPART_MAX_BYTES, and makes a small file one part', async () => {
    const res = await api(alice).declare({ file_name: 'huge.mp4', content_type: 'video/mp4', file_size: 64 * MIB + 1, multipart: true });
    expect(res.status).toBe(413);
    expectSchema('RequestError', res.body);
    const one = await declareMultipart(alice, 5);
    expect(one.parts).toEqual({ part_size: 5 * MIB, count: 1 });
  });

  it('aborts a multipart upload never completed once it is past UPLOAD_RETENTION_HOURS', async () => {
    const upload = await declareMultipart();
    expect(await send(upload.upload_id, [1])).toEqual([200]);
    const key = uploadObjectKey(alice.account_id, upload.upload_id);
    const multipartId = (await gw.app.get(UploadsRepository).findOwn(alice.account_id, upload.upload_id))?.multipart_id;
    expect(multipartId).toEqual(expect.any(String));
    await gw.app.get(HousekeepingLifecycle).sweep(Date.now() + (gw.config.UPLOAD_RETENTION_HOURS + 1) * 3_600_000);
    await expect(gw.storage.listParts(key, multipartId as string)).rejects.toBeInstanceOf(MultipartUploadNotFoundError);
    expect((await api(alice).get(upload.upload_id)).status).toBe(404);
  });
});
