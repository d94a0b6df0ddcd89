import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { uploadObjectKey, uploadVideoUrl } from '@vj/contracts';
import { createGatewayApp } from '../app/create-gateway-app';
import type { CreatedAccount } from '../identity';
import { UploadsRepository } from '../uploads';
import { fakeMessaging } from '../../test/fake-messaging';
import { bearer, expectSchema, startGateway, type GatewayHarness } from '../../test/gateway-harness';

const VIDEO = 'https://media.example.com/clip.mp4';

describe('POST /v1/estimates', () => {
  let gw: GatewayHarness;
  let alice: CreatedAccount;
  let bob: CreatedAccount;

  beforeAll(async () => {
    gw = await startGateway('gateway_estimates_api');
    alice = await gw.newAccount('alice');
    bob = await gw.newAccount('bob');
  });

  afterAll(() => gw.stop());

  const estimate = (query: string, body: unknown, account = alice) =>
    request(gw.server).post(`/v1/estimates${query}`).set(bearer(account)).send(body as object);

  function expectInvalid(res: request.Response, status: number, fields: string[]): void {
    expect(res.status).toBe(status);
    expectSchema('RequestError', res.body);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([...fields].sort());
  }

  it.each([
    ['clean-audio-video', { video_url: VIDEO, strength: 0.3 }],
    ['video-background-removal', { video_url: VIDEO, output_codec: 'h264' }],
  ])('answers 200 with the quote of a %s job and creates no job', async (type, body) => {
    const creates = gw.jobs.creates.length;
    const res = await estimate(`?type=${type}`, body);
    expect(res.status).toBe(200);
    expectSchema('Estimate', res.body);
    expect(res.body).toEqual({ credits_estimated: 26, duration_seconds: 12.4, basis: 'probed_duration' });
    expect(gw.mediaProbe.probes.at(-1)).toEqual({ version: 1, input: { kind: 'url', url: VIDEO } });
    expect(gw.jobs.creates).toHaveLength(creates);
  });

  it('quotes the maximum duration when the probe times out twice, and says so', async () => {
    gw.mediaProbe.timesOut = true;
    try {
      // An input no earlier test probed: the gateway reuses a probed duration.
      const res = await estimate('?type=video-background-removal', { video_url: `https://media.example.com/${randomUUID()}.mp4` });
      expect(res.status).toBe(200);
      expectSchema('Estimate', res.body);
      expect(res.body).toEqual({ credits_estimated: 120, duration_seconds: 60, basis: 'max_duration_timed_out' });
    } finally {
      gw.mediaProbe.timesOut = false;
    }
  });

  it('answers 503 unavailable when billing cannot be reached', async () => {
    gw.billing.reachable = false;
    try {
      const res = await estimate('?type=clean-audio-video', { video_url: VIDEO });
      expect(res.status).toBe(503);
      expectSchema('RequestError', res.body);
      expect(res.body.error.code).toBe('unavailable');
    } finally {
      gw.billing.reachable = true;
    }
  });

  it('ignores Idempotency-Key: the same key with another body is quoted again', async () => {
    const first = await estimate('?type=clean-audio-video', { video_url: VIDEO }).set('Idempotency-Key', 'k1');
    const second = await estimate('?type=clean-audio-video', { video_url: VIDEO, strength: 0.1 }).set('Idempotency-Key', 'k1');
    expect([first.status, second.status]).toEqual([200, 200]);
  });

  describe('the type query parameter', () => {
    it.each([
      ['missing', '', ['type']],
      ['unknown', '?type=transcode', ['type']],
      ['given twice', '?type=clean-audio-video&type=clean-audio-video', ['type']],
      ['beside an unknown parameter', '?type=clean-audio-video&dry_run=1', ['dry_run']],
    ])('answers 422 invalid_request naming the field when it is %s', async (_name, query, fields) => {
      expectInvalid(await estimate(query, { video_url: VIDEO }), 422, fields);
    });

    it('is checked before the body', async () => {
      expectInvalid(await estimate('', { colour: 'red' }), 422, ['type']);
    });
  });

  describe('the body, checked as its create endpoint checks it', () => {
    it.each([
      ['clean-audio-video', { video_url: VIDEO, output_codec: 'vp9' }, ['output_codec']],
      ['video-background-removal', { video_url: VIDEO, strength: 0.5 }, ['strength']],
      ['clean-audio-video', { video_url: VIDEO, strength: 1.5, target_lufs: null }, ['strength', 'target_lufs']],
      ['video-background-removal', { video_url: 'ftp://media.example.com/clip.mp4' }, ['video_url']],
      ['clean-audio-video', {}, ['video_url']],
    ])('answers 422 for a %s body %j', async (type, body, fields) => {
      expectInvalid(await estimate(`?type=${type}`, body), 422, fields);
    });

    it('answers 400 for a body that is not a JSON object', async () => {
      const res = await estimate('?type=clean-audio-video', [{ video_url: VIDEO }]);
      expect(res.status).toBe(400);
      expectSchema('RequestError', res.body);
    });

    it('quotes an upload of the same account as its upload input', async () => {
      const upload = await gw.upload(alice, 'video bytes');
      const res = await estimate('?type=clean-audio-video', { video_url: upload.video_url });
      expect(res.status).toBe(200);
      expectSchema('Estimate', res.body);
      expect(gw.mediaProbe.probes.at(-1)?.input).toMatchObject({ kind: 'upload', upload_id: upload.upload_id, object_key: uploadObjectKey(alice.account_id, upload.upload_id) });
    });

    it('probes an upload once: its duration is kept with the bytes it was probed on, and new bytes are probed again', async () => {
      const upload = await gw.upload(alice, 'first bytes');
      const probesOf = () => gw.mediaProbe.probes.filter((probe) => probe.input.kind === 'upload' && probe.input.upload_id === upload.upload_id).length;
      expect((await estimate('?type=clean-audio-video', { video_url: upload.video_url })).body.duration_seconds).toBe(12.4);
      const kept = await gw.app.get(UploadsRepository).findOwn(alice.account_id, upload.upload_id);
      expect(kept).toMatchObject({ duration_seconds: 12.4, probed_etag: expect.any(String) });
      // Another gateway instance, with nothing in memory, quotes from the upload's row.
      const second = await createGatewayApp(gw.config, { messaging: fakeMessaging() });
      try {
        const other = await request(second.getHttpServer()).post('/v1/estimates?type=clean-audio-video').set({ Authorization: `Bearer ${alice.api_key}` }).send({ video_url: upload.video_url });
        expect(other.body.duration_seconds).toBe(12.4);
        expect(probesOf()).toBe(1);
      } finally {
        await second.close();
      }
      expect((await fetch(upload.upload_url, { method: 'PUT', body: 'other bytes', headers: { 'content-type': 'video/mp4' } })).status).toBe(200);
      await estimate('?type=clean-audio-video', { video_url: upload.video_url });
      expect(probesOf()).toBe(2);
    });

    it("refuses another account's upload with 422 on video_url", async () => {
      const upload = await gw.upload(bob, 'video bytes');
      expectInvalid(await estimate('?type=clean-audio-video', { video_url: upload.video_url }), 422, ['video_url']);
    });

    it('refuses an upload that was never declared with 422 on video_url', async () => {
      expectInvalid(await estimate('?type=video-background-removal', { video_url: uploadVideoUrl(randomUUID()) }), 422, ['video_url']);
    });
  });
});
