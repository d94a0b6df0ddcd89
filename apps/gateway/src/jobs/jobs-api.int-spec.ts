import { createHash, randomUUID } from 'node:crypto';
import request from 'supertest';
import { BACKGROUND_REMOVAL_DEFAULTS, CLEAN_AUDIO_DEFAULTS, uploadObjectKey, uploadVideoUrl, type JobType } from '@vj/contracts';
import type { CreatedAccount } from '../identity';
import { bearer, expectJob, expectJobList, expectSchema, startGateway, type GatewayHarness } from '../../test/gateway-harness';

const VIDEO = 'https://media.example.com/clip.mp4';
// The gateway reuses a probed duration per account and input: a test that watches the probe needs an input of its own.
const unprobedVideo = () => `https://media.example.com/${randomUUID()}.mp4`;

describe('job endpoints', () => {
  let gw: GatewayHarness;
  let alice: CreatedAccount;
  let bob: CreatedAccount;

  beforeAll(async () => {
    gw = await startGateway('gateway_jobs_api');
    alice = await gw.newAccount('alice');
    bob = await gw.newAccount('bob');
  });

  afterAll(() => gw.stop());

  const create = (type: JobType, body: unknown, account = alice) => request(gw.server).post(`/v1/${type}`).set(bearer(account)).send(body as object);

  function expectInvalid(res: request.Response, status: number, fields: string[]): void {
    expect(res.status).toBe(status);
    expectSchema('RequestError', res.body);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([...fields].sort());
  }

  describe('create', () => {
    it.each(['clean-audio-video', 'video-background-removal'] as const)('accepts a %s job with 202 and a PROCESSING job object', async (type) => {
      const res = await create(type, { video_url: VIDEO });
      expect(res.status).toBe(202);
      expectJob(type, res.body);
      expect(res.body).toEqual({ job_id: expect.any(String), status: 'PROCESSING', credits_estimated: expect.any(Number) });
    });

    it('sends the create command with defaults applied and the URL as input', async () => {
      await create('clean-audio-video', { video_url: VIDEO, strength: 0.2 });
      expect(gw.jobs.creates.at(-1)).toMatchObject({
        version: 1,
        account_id: alice.account_id,
        job_type: 'clean-audio-video',
        input: { kind: 'url', url: VIDEO },
        options: { ...CLEAN_AUDIO_DEFAULTS, strength: 0.2 },
      });
      await create('video-background-removal', { video_url: VIDEO });
      expect(gw.jobs.creates.at(-1)?.options).toEqual(BACKGROUND_REMOVAL_DEFAULTS);
    });

    it('names each unknown property in details', async () => {
      const res = await create('clean-audio-video', { video_url: VIDEO, colour: 'red', speed: 2 });
      expectInvalid(res, 422, ['colour', 'speed']);
      expect(res.body.error.details.every((d: { type: string }) => d.type === 'unknown_property')).toBe(true);
    });

    it.each([
      ['strength above 1', { strength: 1.5 }, 'strength'],
      ['strength below 0', { strength: -0.1 }, 'strength'],
      ['target_lufs below -40', { target_lufs: -50 }, 'target_lufs'],
      ['target_lufs above -8', { target_lufs: -2 }, 'target_lufs'],
      ['strength as a string', { strength: '0.5' }, 'strength'],
      ['normalize_loudness as a string', { normalize_loudness: 'yes' }, 'normalize_loudness'],
    ])('refuses clean-audio %s with 422 on that field', async (_name, extra, field) => {
      expectInvalid(await create('clean-audio-video', { video_url: VIDEO, ...extra }), 422, [field]);
    });

    it.each([
      ['an unknown output_codec', { output_codec: 'av1' }, 'output_codec'],
      ['refine_foreground_edges as a number', { refine_foreground_edges: 1 }, 'refine_foreground_edges'],
      ['subject_is_person as null', { subject_is_person: null }, 'subject_is_person'],
      ['a background and output_codec vp9', { background: { color: '#00ff00' }, output_codec: 'vp9' }, 'background'],
      ['a background and output_codec prores', { background: { blur: 0.5 }, output_codec: 'prores' }, 'background'],
      ['a background of both a colour and a blur', { background: { color: '#00ff00', blur: 0.5 } }, 'background'],
      ['an empty background', { background: {} }, 'background'],
      // An unknown property, and no kind given.
      ['a background of an unknown kind', { background: { video_url: 'https://media.example.com/beach.mp4' } }, ['background', 'background.video_url']],
      ['an image_url of a file', { background: { image_url: 'file:///etc/passwd' } }, 'background.image_url'],
      ['an image_url with credentials', { background: { image_url: 'https://user:secret@media.example.com/beach.jpg' } }, 'background.image_url'],
      ['an upload:// image_url that no upload has', { background: { image_url: 'upload://9b2e4c1d-7f3a-4e8b-a6d5-1c0f2e3d4b5a' } }, 'background.image_url'],
      ['a malformed upload:// image_url', { background: { image_url: 'upload://../../secret' } }, 'background.image_url'],
      ['an image_url longer than 2048 characters', { background: { image_url: `https://media.example.com/${'a'.repeat(2030)}` } }, 'background.image_url'],
      ['an image_url beside a colour', { background: { image_url: 'https://media.example.com/beach.jpg', color: '#00ff00' } }, 'background'],
      ['a colour not written #RRGGBB', { background: { color: 'green' } }, 'background.color'],
      ['a blur past 1', { background: { blur: 2 } }, 'background.blur'],
      ['a background as a string', { background: '#00ff00' }, 'background'],
      ['a null colour beside a blur', { background: { color: null, blur: 0.5 } }, 'background'],
      ['a null colour', { background: { color: null } }, 'background'],
    ])('refuses background-removal with %s with 422 on that field', async (_name, extra, field) => {
      expectInvalid(await create('video-background-removal', { video_url: VIDEO, ...extra }), 422, [field].flat());
    });

    it.each([
      ['a colour', { background: { color: '#00B140' } }, { output_codec: 'h264', background: { color: '#00b140' } }],
      ['a blur, output_codec h264', { background: { blur: 0.25 }, output_codec: 'h264' }, { output_codec: 'h264', background: { blur: 0.25 } }],
      ['an image', { background: { image_url: 'https://media.example.com/beach.jpg' } }, { output_codec: 'h264', background: { image_url: 'https://media.example.com/beach.jpg' } }],
    ])('sends a background-removal on %s as an h264 composite', async (_name, extra, options) => {
      const res = await create('video-background-removal', { video_url: VIDEO, ...extra });
      expect(res.status).toBe(202);
      expect(gw.jobs.creates.at(-1)?.options).toEqual({ refine_foreground_edges: true, subject_is_person: true, ...options });
    });

    it.each([
      ['missing', undefined],
      ['ftp://', 'ftp://media.example.com/clip.mp4'],
      ['with credentials', 'https://user:secret@media.example.com/clip.mp4'],
      ['longer than 8192 characters', `https://media.example.com/${'a'.repeat(8200)}`],
      ['not a URL', 'clip.mp4'],
      ['a malformed upload:// id', 'upload://not-a-uuid'],
      ['a number', 42],
    ])('refuses a video_url that is %s with 422 on video_url', async (_name, videoUrl) => {
      expectInvalid(await create('clean-audio-video', { video_url: videoUrl }), 422, ['video_url']);
    });

    it('accepts an upload of the same account and sends it as an upload input pinned to its ETag and size', async () => {
      const upload = await gw.upload(alice, 'video bytes');
      const res = await create('video-background-removal', { video_url: upload.video_url });
      expect(res.status).toBe(202);
      expectJob('video-background-removal', res.body);
      expect(gw.jobs.creates.at(-1)?.input).toEqual({
        kind: 'upload',
        upload_id: upload.upload_id,
        object_key: uploadObjectKey(alice.account_id, upload.upload_id),
        etag: createHash('md5').update('video bytes').digest('hex'),
        size: 11,
      });
    });

    it('sends an image upload of the same account as the background, checked before any probe', async () => {
      const image = await gw.upload(alice, 'png bytes', { contentType: 'image/png' });
      const probes = gw.mediaProbe.probes.length;
      const res = await create('video-background-removal', { video_url: VIDEO, background: { image_url: image.video_url } });
      expect(res.status).toBe(202);
      expect(gw.jobs.creates.at(-1)?.options).toEqual({ output_codec: 'h264', refine_foreground_edges: true, subject_is_person: true, background: { image_url: image.video_url } });
      expect(gw.mediaProbe.probes.length - probes).toBeLessThanOrEqual(1);
    });

    it.each([
      ["another account's image upload", async () => (await gw.upload(bob, 'png bytes', { contentType: 'image/png' })).video_url, 'no upload of this account'],
      ['an image upload declared and never PUT', async () => (await gw.upload(alice, 'png bytes', { contentType: 'image/png', put: false })).video_url, 'PUT the bytes'],
      ['a video upload', async () => (await gw.upload(alice, 'video bytes')).video_url, 'takes an upload declared as image/png, image/jpeg, image/webp'],
    ])('refuses %s as a background image with 422 on background.image_url, creating nothing', async (_name, imageUrl, message) => {
      const creates = gw.jobs.creates.length;
      const res = await create('video-background-removal', { video_url: VIDEO, background: { image_url: await imageUrl() } });
      expectInvalid(res, 422, ['background.image_url']);
      expect(res.body.error.message).toContain(message);
      expect(gw.jobs.creates.length).toBe(creates);
    });

    it('refuses an image upload as a video_url with 422 on video_url', async () => {
      const image = await gw.upload(alice, 'png bytes', { contentType: 'image/jpeg' });
      const res = await create('clean-audio-video', { video_url: image.video_url });
      expectInvalid(res, 422, ['video_url']);
      expect(res.body.error.message).toContain('this upload is an image');
    });

    it("refuses another account's upload with 422 on video_url", async () => {
      const upload = await gw.upload(bob, 'video bytes');
      expectInvalid(await create('clean-audio-video', { video_url: upload.video_url }), 422, ['video_url']);
    });

    it('refuses an upload that was never declared, or declared and never PUT, with 422 on video_url', async () => {
      expectInvalid(await create('clean-audio-video', { video_url: uploadVideoUrl(randomUUID()) }), 422, ['video_url']);
      const declared = await gw.upload(alice, 'video bytes', { put: false });
      expectInvalid(await create('clean-audio-video', { video_url: declared.video_url }), 422, ['video_url']);
    });

    it('refuses an upload whose stored object is not what was declared with 422 on video_url', async () => {
      const declared = await gw.upload(alice, 'video bytes', { put: false });
      await gw.putObject(uploadObjectKey(alice.account_id, declared.upload_id), 'other video bytes', 'video/mp4');
      const res = await create('clean-audio-video', { video_url: declared.video_url });
      expectInvalid(res, 422, ['video_url']);
      expect(res.body.error.message).toContain('is not what was declared (11 bytes, video/mp4)');
    });
  });

  describe('quote on create', () => {
    it("probes the input, prices it with billing's list and sends the quote with the create command", async () => {
      const video = unprobedVideo();
      const res = await create('clean-audio-video', { video_url: video, strength: 0.2 });
      expect(res.status).toBe(202);
      expectJob('clean-audio-video', res.body);
      expect(gw.mediaProbe.probes.at(-1)).toEqual({ version: 1, input: { kind: 'url', url: video } });
      expect(gw.jobs.creates.at(-1)?.options).toEqual({ ...CLEAN_AUDIO_DEFAULTS, strength: 0.2 });
      const estimate = { credits_estimated: 26, duration_seconds: 12.4, basis: 'probed_duration', price_version: 1 };
      expect(gw.jobs.creates.at(-1)?.estimate).toEqual(estimate);
      expect(res.body).toEqual({ job_id: expect.any(String), status: 'PROCESSING', credits_estimated: 26 });
    });

    it('shows credits_estimated on the create response only, not on reads', async () => {
      const { body } = await create('video-background-removal', { video_url: VIDEO });
      expect(body.credits_estimated).toBe(26);
      const read = await request(gw.server).get(`/v1/video-background-removal/${body.job_id}`).set(bearer(alice));
      expectJob('video-background-removal', read.body);
      expect(read.body).not.toHaveProperty('credits_estimated');
    });

    it.each([
      ['times out', { timesOut: true }, 'max_duration_timed_out'],
      ['cannot tell the duration', { durationSeconds: null }, 'max_duration'],
    ])('passes a maximum-duration quote through when the probe %s', async (_name, probe, basis) => {
      Object.assign(gw.mediaProbe, probe);
      try {
        const res = await create('video-background-removal', { video_url: unprobedVideo() });
        expect(res.status).toBe(202);
        expectJob('video-background-removal', res.body);
        expect(gw.jobs.creates.at(-1)?.estimate).toEqual({ credits_estimated: 120, duration_seconds: 60, basis, price_version: 1 });
        expect(res.body.credits_estimated).toBe(120);
      } finally {
        Object.assign(gw.mediaProbe, { timesOut: false, durationSeconds: 12.4 });
      }
    });

    it('probes an input once for concurrent creates and reuses its duration for later ones', async () => {
      const video = unprobedVideo();
      const probes = gw.mediaProbe.probes.length;
      const concurrent = await Promise.all([1, 2, 3].map(() => create('clean-audio-video', { video_url: video })));
      const later = await create('video-background-removal', { video_url: video });
      expect([...concurrent, later].map((res) => res.body.credits_estimated)).toEqual([26, 26, 26, 26]);
      expect(gw.mediaProbe.probes.length - probes).toBe(1);
      await create('clean-audio-video', { video_url: video }, bob);
      expect(gw.mediaProbe.probes.length - probes).toBe(2);
    });

    it('probes again after a probe that could not tell the duration', async () => {
      const video = unprobedVideo();
      const probes = gw.mediaProbe.probes.length;
      gw.mediaProbe.durationSeconds = null;
      try {
        expect((await create('clean-audio-video', { video_url: video })).body.credits_estimated).toBe(120);
      } finally {
        gw.mediaProbe.durationSeconds = 12.4;
      }
      expect((await create('clean-audio-video', { video_url: video })).body.credits_estimated).toBe(26);
      expect(gw.mediaProbe.probes.length - probes).toBe(2);
    });

    it('probes an upload as the same upload input the job gets', async () => {
      const upload = await gw.upload(alice, 'video bytes');
      await create('clean-audio-video', { video_url: upload.video_url });
      expect(gw.mediaProbe.probes.at(-1)?.input).toEqual(gw.jobs.creates.at(-1)?.input);
    });

    it('answers 503 unavailable and creates no job when billing cannot be reached', async () => {
      const creates = gw.jobs.creates.length;
      gw.billing.reachable = false;
      try {
        const res = await create('clean-audio-video', { video_url: VIDEO });
        expect(res.status).toBe(503);
        expectSchema('RequestError', res.body);
        expect(res.body.error.code).toBe('unavailable');
      } finally {
        gw.billing.reachable = true;
      }
      expect(gw.jobs.creates).toHaveLength(creates);
    });

    it('neither probes nor quotes a body that fails validation', async () => {
      const probes = gw.mediaProbe.probes.length;
      const quotes = gw.billing.priceListCalls;
      expectInvalid(await create('clean-audio-video', { video_url: VIDEO, strength: 2 }), 422, ['strength']);
      expect(gw.mediaProbe.probes).toHaveLength(probes);
      expect(gw.billing.priceListCalls).toBe(quotes);
    });
  });

  describe('Idempotency-Key', () => {
    const createWithKey = (key: string, body: object, type: JobType = 'clean-audio-video') =>
      request(gw.server).post(`/v1/${type}`).set(bearer(alice)).set('Idempotency-Key', key).send(body);

    it('replays the first answer for the same key and body, whatever the key order, without a new job', async () => {
      const first = await createWithKey('order-1', { video_url: VIDEO, strength: 0.5 });
      const creates = gw.jobs.creates.length;
      // The input got longer since: the replay still shows the first answer's quote.
      gw.mediaProbe.durationSeconds = 30;
      try {
        const replay = await createWithKey('order-1', { strength: 0.5, video_url: VIDEO });
        expect(first.status).toBe(202);
        expect(replay.status).toBe(202);
        expectJob('clean-audio-video', replay.body);
        expect(replay.body).toEqual(first.body);
        expect(replay.body.credits_estimated).toBe(26);
      } finally {
        gw.mediaProbe.durationSeconds = 12.4;
      }
      expect(gw.jobs.creates).toHaveLength(creates);
    });

    it('replays without a new quote, so a replay succeeds while billing is down', async () => {
      const first = await createWithKey('order-5', { video_url: VIDEO });
      const probes = gw.mediaProbe.probes.length;
      const quotes = gw.billing.priceListCalls;
      gw.billing.reachable = false;
      try {
        const replay = await createWithKey('order-5', { video_url: VIDEO });
        expect(replay.status).toBe(202);
        expect(replay.body).toEqual(first.body);
      } finally {
        gw.billing.reachable = true;
      }
      expect(gw.mediaProbe.probes).toHaveLength(probes);
      expect(gw.billing.priceListCalls).toBe(quotes);
    });

    it('replays PROCESSING even after the job was cancelled', async () => {
      const first = await createWithKey('order-2', { video_url: VIDEO });
      await request(gw.server).post(`/v1/clean-audio-video/${first.body.job_id}/cancel`).set(bearer(alice)).expect(200);
      const replay = await createWithKey('order-2', { video_url: VIDEO });
      expect(replay.status).toBe(202);
      expect(replay.body).toEqual(first.body);
    });

    it('answers 409 conflict for the same key with another body', async () => {
      await createWithKey('order-3', { video_url: VIDEO });
      const res = await createWithKey('order-3', { video_url: VIDEO, strength: 0.1 });
      expect(res.status).toBe(409);
      expectSchema('RequestError', res.body);
      expect(res.body.error.code).toBe('conflict');
    });

    it('answers 409 conflict for the same key and body sent to the other job type', async () => {
      await createWithKey('order-4', { video_url: VIDEO }, 'video-background-removal');
      const res = await createWithKey('order-4', { video_url: VIDEO }, 'clean-audio-video');
      expect(res.status).toBe(409);
      expectSchema('RequestError', res.body);
    });

    it('keeps keys per account', async () => {
      const mine = await createWithKey('shared-key', { video_url: VIDEO });
      const theirs = await request(gw.server).post('/v1/clean-audio-video').set(bearer(bob)).set('Idempotency-Key', 'shared-key').send({ video_url: VIDEO });
      expect(theirs.status).toBe(202);
      expect(theirs.body.job_id).not.toBe(mine.body.job_id);
    });

    it.each([
      ['longer than 255 characters', 'k'.repeat(256)],
      ['with a space', 'two words'],
      ['with non-ASCII characters', 'clé'],
    ])('refuses a key %s with 400', async (_name, key) => {
      const res = await request(gw.server).post('/v1/clean-audio-video').set(bearer(alice)).set('Idempotency-Key', key).send({ video_url: VIDEO });
      expect(res.status).toBe(400);
      expectSchema('RequestError', res.body);
      expect(res.body.error.code).toBe('invalid_request');
    });

    it('hashes the raw body before defaults are applied', async () => {
      await createWithKey('raw-body', { video_url: VIDEO });
      const res = await createWithKey('raw-body', { video_url: VIDEO, strength: CLEAN_AUDIO_DEFAULTS.strength });
      expect(res.status).toBe(409);
    });
  });

  describe('get', () => {
    it('answers a PROCESSING job with job_id and status only', async () => {
      const { body } = await create('clean-audio-video', { video_url: VIDEO });
      const res = await request(gw.server).get(`/v1/clean-audio-video/${body.job_id}`).set(bearer(alice));
      expect(res.status).toBe(200);
      expectJob('clean-audio-video', res.body);
      expect(res.body).toEqual({ job_id: body.job_id, status: 'PROCESSING' });
    });

    it('answers a COMPLETED job with fresh presigned URLs that download the result', async () => {
      const { body } = await create('clean-audio-video', { video_url: VIDEO });
      const key = `results/${body.job_id}/clean.mp4`;
      await gw.putObject(key, 'clean bytes');
      gw.jobs.complete(body.job_id, { job_type: 'clean-audio-video', video: { object_key: key, content_type: 'video/mp4', file_name: 'clean.mp4', file_size: 11 } }, 5);
      const res = await request(gw.server).get(`/v1/clean-audio-video/${body.job_id}`).set(bearer(alice));
      expect(res.status).toBe(200);
      expectJob('clean-audio-video', res.body);
      expect(res.body).toEqual({
        job_id: body.job_id,
        status: 'COMPLETED',
        credits_charged: 5,
        result: { video: { url: expect.any(String), content_type: 'video/mp4', file_name: 'clean.mp4', file_size: 11 } },
      });
      const url = new URL(res.body.result.video.url);
      expect(url.searchParams.get('X-Amz-Expires')).toBe(String(gw.config.RESULT_URL_TTL_SECONDS));
      const download = await fetch(url);
      expect(await download.text()).toBe('clean bytes');
    });

    it('answers a COMPLETED background-removal job with every file', async () => {
      const { body } = await create('video-background-removal', { video_url: VIDEO, output_codec: 'h264' });
      const file = (name: string) => ({ object_key: `results/${body.job_id}/${name}`, content_type: 'video/mp4', file_name: name, file_size: 3 });
      gw.jobs.complete(body.job_id, { job_type: 'video-background-removal', files: [file('rgb.mp4'), file('alpha.mp4')] }, null);
      const res = await request(gw.server).get(`/v1/video-background-removal/${body.job_id}`).set(bearer(alice));
      expectJob('video-background-removal', res.body);
      expect(res.body.result.files.map((f: { file_name: string }) => f.file_name)).toEqual(['rgb.mp4', 'alpha.mp4']);
      expect(res.body).not.toHaveProperty('credits_charged');
    });

    it('answers a FAILED job with its error', async () => {
      const { body } = await create('clean-audio-video', { video_url: VIDEO });
      gw.jobs.fail(body.job_id, { code: 'audio_too_long', message: 'audio is 31 minutes long; the limit is 30', details: null });
      const res = await request(gw.server).get(`/v1/clean-audio-video/${body.job_id}`).set(bearer(alice));
      expectJob('clean-audio-video', res.body);
      expect(res.body).toEqual({ job_id: body.job_id, status: 'FAILED', error: { code: 'audio_too_long', message: 'audio is 31 minutes long; the limit is 30', details: null } });
    });

    it("answers 404 for another account's job", async () => {
      const { body } = await create('clean-audio-video', { video_url: VIDEO }, bob);
      const res = await request(gw.server).get(`/v1/clean-audio-video/${body.job_id}`).set(bearer(alice));
      expect(res.status).toBe(404);
      expectSchema('RequestError', res.body);
      expect(res.body.error.code).toBe('not_found');
    });

    it('answers 404 for a job of the other type', async () => {
      const { body } = await create('clean-audio-video', { video_url: VIDEO });
      const res = await request(gw.server).get(`/v1/video-background-removal/${body.job_id}`).set(bearer(alice));
      expect(res.status).toBe(404);
      expectSchema('RequestError', res.body);
    });

    it('answers 404 for an id that is not a UUID', async () => {
      const res = await request(gw.server).get('/v1/clean-audio-video/not-a-uuid').set(bearer(alice));
      expect(res.status).toBe(404);
      expectSchema('RequestError', res.body);
      expect(res.body.error.code).toBe('not_found');
    });
  });

  describe('creates without an Idempotency-Key', () => {
    it('make one job when the same x-request-id is sent twice', async () => {
      const headers = { ...bearer(alice), 'x-request-id': 'client-retry-1' };
      const first = await request(gw.server).post('/v1/clean-audio-video').set(headers).send({ video_url: VIDEO });
      const again = await request(gw.server).post('/v1/clean-audio-video').set(headers).send({ video_url: VIDEO });
      expect(first.status).toBe(202);
      expect(again.status).toBe(202);
      expect(again.body.job_id).toBe(first.body.job_id);
      expect(gw.jobs.creates.at(-1)?.idempotency?.key).toBe('x-request-id client-retry-1');
    });

    it('make one job when the jobs service timed out after creating it: the gateway asks again and gets that job', async () => {
      const before = (await gw.jobs.list({ version: 1, account_id: alice.account_id, limit: 100 })).jobs.length;
      gw.jobs.timeOutAfterNextCreate = true;
      const res = await request(gw.server).post('/v1/clean-audio-video').set(bearer(alice)).send({ video_url: VIDEO });
      expect(res.status).toBe(202);
      expectJob('clean-audio-video', res.body);
      expect((await gw.jobs.list({ version: 1, account_id: alice.account_id, limit: 100 })).jobs.length).toBe(before + 1);
    });
  });

  describe('delete', () => {
    it('answers 409 for a PROCESSING job, then 204 once it is final (and again), and the job reads as 404 from then on', async () => {
      const { body } = await create('clean-audio-video', { video_url: VIDEO });
      const path = `/v1/clean-audio-video/${body.job_id}`;
      const early = await request(gw.server).delete(path).set(bearer(alice));
      expect(early.status).toBe(409);
      expectSchema('RequestError', early.body);
      await request(gw.server).post(`${path}/cancel`).set(bearer(alice)).expect(200);
      const deleted = await request(gw.server).delete(path).set(bearer(alice));
      expect(deleted.status).toBe(204);
      expect(deleted.text).toBe('');
      expect((await request(gw.server).delete(path).set(bearer(alice))).status).toBe(204);
      expect((await request(gw.server).get(path).set(bearer(alice))).status).toBe(404);
    });

    it("answers 404 for another account's job and for a job of the other type", async () => {
      const { body } = await create('clean-audio-video', { video_url: VIDEO });
      expect((await request(gw.server).delete(`/v1/clean-audio-video/${body.job_id}`).set(bearer(bob))).status).toBe(404);
      expect((await request(gw.server).delete(`/v1/video-background-removal/${body.job_id}`).set(bearer(alice))).status).toBe(404);
    });
  });

  describe('cancel', () => {
    it('cancels a PROCESSING job and answers it CANCELLED', async () => {
      const { body } = await create('video-background-removal', { video_url: VIDEO });
      const res = await request(gw.server).post(`/v1/video-background-removal/${body.job_id}/cancel`).set(bearer(alice));
      expect(res.status).toBe(200);
      expectJob('video-background-removal', res.body);
      expect(res.body).toEqual({ job_id: body.job_id, status: 'CANCELLED' });
    });

    it('answers 409 conflict for a job that is already final', async () => {
      const { body } = await create('clean-audio-video', { video_url: VIDEO });
      gw.jobs.fail(body.job_id, { code: 'timeout', message: 'too slow' });
      const res = await request(gw.server).post(`/v1/clean-audio-video/${body.job_id}/cancel`).set(bearer(alice));
      expect(res.status).toBe(409);
      expectSchema('RequestError', res.body);
      expect(res.body.error.code).toBe('conflict');
    });

    it("answers 404 for another account's job", async () => {
      const { body } = await create('clean-audio-video', { video_url: VIDEO }, bob);
      const res = await request(gw.server).post(`/v1/clean-audio-video/${body.job_id}/cancel`).set(bearer(alice));
      expect(res.status).toBe(404);
      expectSchema('RequestError', res.body);
    });
  });

  describe('list', () => {
    let carol: CreatedAccount;
    const ids: string[] = [];

    beforeAll(async () => {
      carol = await gw.newAccount('carol');
      for (const type of ['clean-audio-video', 'video-background-removal', 'clean-audio-video'] as const) {
        ids.push((await create(type, { video_url: VIDEO }, carol)).body.job_id);
      }
    });

    const list = (query: string, account = carol) => request(gw.server).get(`/v1/jobs${query}`).set(bearer(account));

    it('lists only the account’s jobs, newest first, with type, created_at and the job object', async () => {
      const res = await list('');
      expect(res.status).toBe(200);
      expectJobList(res.body);
      expect(res.body.data.map((item: { job: { job_id: string } }) => item.job.job_id)).toEqual([...ids].reverse());
      expect(res.body.data[0]).toEqual({ type: 'clean-audio-video', created_at: expect.any(String), job: { job_id: ids[2], status: 'PROCESSING' } });
      expect(res.body.next_cursor).toBeNull();
    });

    it('pages with limit and next_cursor', async () => {
      const first = await list('?limit=2');
      expectJobList(first.body);
      expect(first.body.data).toHaveLength(2);
      const second = await list(`?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`);
      expectJobList(second.body);
      expect(second.body.data.map((item: { job: { job_id: string } }) => item.job.job_id)).toEqual([ids[0]]);
      expect(second.body.next_cursor).toBeNull();
    });

    it('filters by type and status', async () => {
      const byType = await list('?type=video-background-removal');
      expectJobList(byType.body);
      expect(byType.body.data.map((item: { job: { job_id: string } }) => item.job.job_id)).toEqual([ids[1]]);
      const byStatus = await list('?status=COMPLETED');
      expectJobList(byStatus.body);
      expect(byStatus.body.data).toEqual([]);
    });

    it.each([
      ['limit=0', ['limit']],
      ['limit=101', ['limit']],
      ['limit=ten', ['limit']],
      ['type=transcode', ['type']],
      ['status=DONE', ['status']],
      ['page=2&sort=asc', ['page', 'sort']],
    ])('refuses ?%s with 422 naming the fields', async (query, fields) => {
      expectInvalid(await list(`?${query}`), 422, fields);
    });
  });
});
