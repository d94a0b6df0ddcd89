import { readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import type { CleanAudioVideoJob } from '@vj/contracts';
import type { CleanAudioVideoReport, Upload, UploadPartUrls, UploadState } from '@vj/sdk';
import { schemaViolations } from '@vj/http-contracts';
import { freePort, waitFor } from '@vj/local-stack';
import { ApiClient } from '../support/api-client';
import { useE2eStack } from '../support/e2e-stack';
import { waitForFinalJob } from '../support/job-polling';
import { generateVideo, loudness, probeStreams, videoPacketHashes } from '../support/media-tools';
import { openSse, type SseMessage } from '../../apps/gateway/test/sse-client';
import { startJobCounts } from '../../examples/job-counts/src/job-counts';

const JOB_SCHEMA = 'CleanAudioVideoJob' as const;

describe('clean-audio-video through the REST API, all four services', () => {
  // Parts of S3's smallest size, so a few MiB of video make several.
  const e2e = useE2eStack('e2e-clean-audio', { UPLOAD_PART_BYTES: String(5 * 1024 ** 2) });
  const upload = (path: string, type: string) => e2e.upload(path, type);
  const runJob = (body: Record<string, unknown>) => e2e.runCleanAudio(body);
  const download = (url: string, name: string) => e2e.download(url, name);

  it('cleans an uploaded H.264 video: picture copied bit for bit, 48 kHz mono AAC in MP4, loudness on target', async () => {
    const input = join(e2e.dir, 'noisy.mp4');
    await generateVideo(input, { codec: 'h264', seconds: 4, audio: true });
    const job = await runJob({ video_url: await upload(input, 'video/mp4'), target_lufs: -19 });
    expect(job.status).toBe('COMPLETED');
    const file = job.result!.video;
    expect(file.content_type).toBe('video/mp4');
    const output = await download(file.url, 'clean.mp4');
    expect(statSync(output).size).toBe(file.file_size);
    expect(await videoPacketHashes(output)).toEqual(await videoPacketHashes(input));
    const streams = await probeStreams(output);
    expect(streams.formatName).toContain('mp4');
    expect(streams.audio).toEqual([expect.objectContaining({ codec_name: 'aac', sample_rate: '48000', channels: 1 })]);
    const { integrated, truePeak } = await loudness(output);
    expect(Math.abs(integrated - -19)).toBeLessThanOrEqual(1);
    expect(truePeak).toBeLessThanOrEqual(-1);
    // Its quality report (decision 0096): what the job measured, against what we measure of the files.
    const { body: quality } = await e2e.api.request<CleanAudioVideoReport>('GET', `/v1/clean-audio-video/${job.job_id}/report`, 'CleanAudioVideoReport');
    expect(quality.picture).toEqual({ identical: true, source_sha256: expect.any(String), output_sha256: quality.picture.source_sha256 });
    expect(quality.output.integrated_lufs).toBeCloseTo(integrated, 0);
    expect(quality.output.true_peak_dbtp).toBeLessThanOrEqual(-1);
    const source = await loudness(input);
    expect(quality.input.integrated_lufs).toBeCloseTo(source.integrated, 0);
    expect(quality.input.true_peak_dbtp).toBeCloseTo(source.truePeak, 0);
    expect(quality.input.noise_floor_dbfs).toEqual(expect.any(Number));
    expect(quality.output.noise_floor_dbfs).toEqual(expect.any(Number));
    // A steady tone under pink noise tells no offset (decision 0098); real speech does (real-speech e2e).
    expect(quality.audio_offset_ms).toBeNull();
    // Asked under the other type, or by an id that is no job's: 404.
    expect((await e2e.api.request('GET', `/v1/video-background-removal/${job.job_id}/report`, 'RequestError')).status).toBe(404);
    expect((await e2e.api.request('GET', '/v1/clean-audio-video/not-a-job/report', 'RequestError')).status).toBe(404);
  });

  // Decision 0099: a client whose connection drops half way through a part resumes from what S3 holds.
  it('takes a video in parts, resumed after the client dropped mid-part, and cleans it with its picture copied bit for bit', async () => {
    const input = join(e2e.dir, 'camera.mp4');
    await generateVideo(input, { codec: 'h264', seconds: 4, audio: true, size: '1280x720', lossless: true });
    const bytes = readFileSync(input);
    const declared = await e2e.api.request<Upload>('POST', '/v1/uploads', 'Upload', { file_name: 'camera.mp4', content_type: 'video/mp4', file_size: bytes.length, multipart: true });
    expect(declared.status).toBe(201);
    const { upload_id: uploadId, parts, video_url: videoUrl } = declared.body as Upload & { parts: { part_size: number; count: number } };
    expect(parts.count).toBeGreaterThanOrEqual(2);
    const all = Array.from({ length: parts.count }, (_, i) => i + 1);
    const bytesOf = (partNumber: number) => bytes.subarray((partNumber - 1) * parts.part_size, partNumber * parts.part_size);
    const sign = async (partNumbers: number[]) => (await e2e.api.request<UploadPartUrls>('POST', `/v1/uploads/${uploadId}/parts`, 'UploadPartUrls', { part_numbers: partNumbers })).body.parts;
    const [first, second] = await sign(all);
    expect((await fetch(first!.url, { method: 'PUT', body: bytesOf(1) })).status).toBe(200);
    // The second part's connection drops half way.
    await new Promise<void>((resolve) => {
      const put = httpRequest(new URL(second!.url), { method: 'PUT', headers: { 'content-length': second!.size } });
      put.on('error', () => resolve());
      put.write(bytesOf(2).subarray(0, second!.size / 2), () => setTimeout(() => put.destroy(), 50));
    });
    // A new client reads what is stored and sends the rest.
    const state = await e2e.api.request<UploadState>('GET', `/v1/uploads/${uploadId}`, 'UploadState');
    expect(state.body.status).toBe('pending');
    expect(state.body.parts_uploaded.map((part) => part.part_number)).toEqual([1]);
    const missing = all.filter((partNumber) => !state.body.parts_uploaded.some((part) => part.part_number === partNumber));
    for (const part of await sign(missing)) expect((await fetch(part.url, { method: 'PUT', body: bytesOf(part.part_number) })).status).toBe(200);
    const completed = await e2e.api.request<UploadState>('POST', `/v1/uploads/${uploadId}/complete`, 'UploadState');
    expect(completed.status).toBe(200);
    expect(completed.body.status).toBe('complete');

    const job = await runJob({ video_url: videoUrl });
    expect(job.status).toBe('COMPLETED');
    const output = await download(job.result!.video.url, 'camera-clean.mp4');
    expect(await videoPacketHashes(output)).toEqual(await videoPacketHashes(input));
  });

  it("follows one create by its request id through all four services' JSON log lines", async () => {
    const input = join(e2e.dir, 'traced.mp4');
    await generateVideo(input, { codec: 'h264', seconds: 2, audio: true, size: '160x120' });
    const requestId = `trace-${Date.now()}`;
    const created = await e2e.api.request<CleanAudioVideoJob>('POST', '/v1/clean-audio-video', JOB_SCHEMA, { video_url: await upload(input, 'video/mp4') }, { 'x-request-id': requestId });
    expect(created.headers.get('x-request-id')).toBe(requestId);
    await waitForFinalJob<CleanAudioVideoJob>(e2e.api, `/v1/clean-audio-video/${created.body.job_id}`, JOB_SCHEMA, 240_000);
    // Each hop after the create goes through an outbox (jobs', billing's): the rows keep the request.
    await waitFor('every service logging the request', async () => {
      const traced = e2e.logLines().filter((line) => line.entry.request_id === requestId);
      expect(traced.every((line) => line.entry.job_id === created.body.job_id)).toBe(true);
      return ['gateway', 'jobs', 'billing', 'render-worker'].every((service) => traced.some((line) => line.service === service));
    }, 10_000, 100);
  });

  // Issue 11: the SSE stream of a real job, then a resume after one of its events.
  it('streams a job\'s start, its progress rising to 1 and its final object over SSE; a resume repeats nothing', async () => {
    const input = join(e2e.dir, 'followed.mp4');
    await generateVideo(input, { codec: 'h264', seconds: 3, audio: true, size: '160x120' });
    const created = await e2e.api.request<CleanAudioVideoJob>('POST', '/v1/clean-audio-video', JOB_SCHEMA, { video_url: await upload(input, 'video/mp4') });
    const url = `${e2e.stack.apiUrl}/v1/clean-audio-video/${created.body.job_id}/events`;
    const auth = { authorization: `Bearer ${e2e.stack.apiKey}` };
    const stream = await openSse(url, auth, 240_000);
    expect(stream.status).toBe(200);
    const events = await stream.events;
    const kinds = events.map((event) => event.event);
    // started comes through the jobs service, progress straight from the worker: either may be first.
    expect(kinds.filter((kind) => kind === 'job.started')).toHaveLength(1);
    expect(kinds.at(-1)).toBe('job.completed');
    const progress = events.filter((event) => event.event === 'job.progress').map((event) => JSON.parse(event.data) as { progress: number; stage: string });
    expect(progress.map((p) => p.progress)).toEqual([...progress.map((p) => p.progress)].sort((a, b) => a - b));
    expect(progress.at(-1)).toMatchObject({ stage: 'uploading', progress: 1 });
    expect(new Set(progress.map((p) => p.stage))).toEqual(new Set(['fetching', 'probing', 'processing', 'uploading']));
    const final = JSON.parse(events.at(-1)!.data) as CleanAudioVideoJob;
    expect(schemaViolations(JOB_SCHEMA, final)).toEqual([]);
    expect(final).toMatchObject({ job_id: created.body.job_id, status: 'COMPLETED' });
    const ids = events.map((event) => Number(event.id));
    expect(new Set(ids).size).toBe(ids.length);

    const middle = events[Math.floor(events.length / 2)] as SseMessage;
    const resumed = await (await openSse(url, { ...auth, 'Last-Event-ID': middle.id! }, 30_000)).events;
    expect(resumed.map((event) => event.id)).toEqual(events.slice(events.indexOf(middle) + 1).map((event) => event.id));
    expect((await openSse(url, { ...auth, 'Last-Event-ID': events.at(-1)!.id! }, 30_000)).status).toBe(204);
  });

  it('answers a create with Prefer: wait=30 with the COMPLETED job of a 2 s video', async () => {
    const input = join(e2e.dir, 'waited.mp4');
    await generateVideo(input, { codec: 'h264', seconds: 2, audio: true, size: '160x120' });
    const created = await e2e.api.request<CleanAudioVideoJob>('POST', '/v1/clean-audio-video', JOB_SCHEMA, { video_url: await upload(input, 'video/mp4') }, { Prefer: 'wait=30' });
    expect(created.status).toBe(200);
    expect(created.headers.get('preference-applied')).toBe('wait=30');
    expect(created.body).toMatchObject({ status: 'COMPLETED', result: { video: { content_type: 'video/mp4' } } });
  });

  it('keeps a VP9 video in WebM with Opus audio when the input comes from a URL', async () => {
    const input = join(e2e.dir, 'noisy.webm');
    await generateVideo(input, { codec: 'vp9', seconds: 3, audio: true });
    const job = await runJob({ video_url: `${e2e.files.baseUrl}/noisy.webm`, normalize_loudness: false });
    expect(job.status).toBe('COMPLETED');
    expect(job.result!.video.content_type).toBe('video/webm');
    const output = await download(job.result!.video.url, 'clean.webm');
    expect(await videoPacketHashes(output)).toEqual(await videoPacketHashes(input));
    const streams = await probeStreams(output);
    expect(streams.formatName).toContain('webm');
    expect(streams.audio).toEqual([expect.objectContaining({ codec_name: 'opus', sample_rate: '48000', channels: 1 })]);
  });

  it('fails the job with invalid_file when the upload is a truncated video', async () => {
    const input = join(e2e.dir, 'truncated.mp4');
    await generateVideo(input, { codec: 'h264', seconds: 2, audio: true });
    truncateSync(input, 2000);
    const job = await runJob({ video_url: await upload(input, 'video/mp4') });
    expect(job.status).toBe('FAILED');
    expect(job.error!.code).toBe('invalid_file');
  });

  it('fails the job with invalid_file when the video has no audio stream', async () => {
    const input = join(e2e.dir, 'silent.mp4');
    await generateVideo(input, { codec: 'h264', seconds: 1, audio: false });
    const job = await runJob({ video_url: await upload(input, 'video/mp4') });
    expect(job.status).toBe('FAILED');
    expect(job.error!.code).toBe('invalid_file');
    expect(job.error!.message).toMatch(/audio/i);
  });

  it('fails the job with invalid_file when the file is not a video at all', async () => {
    const input = join(e2e.dir, 'notes.mp4');
    writeFileSync(input, 'this is not a video');
    const job = await runJob({ video_url: await upload(input, 'video/mp4') });
    expect(job.status).toBe('FAILED');
    expect(job.error!.code).toBe('invalid_file');
  });

  it('fails the job with transload_failed when the URL cannot be reached', async () => {
    const job = await runJob({ video_url: `http://127.0.0.1:${await freePort()}/nothing.mp4` });
    expect(job.status).toBe('FAILED');
    expect(job.error!.code).toBe('transload_failed');
  });

  it('fails the job with transload_failed when the URL answers 404', async () => {
    const job = await runJob({ video_url: `${e2e.files.baseUrl}/missing.mp4` });
    expect(job.status).toBe('FAILED');
    expect(job.error!.code).toBe('transload_failed');
  });

  it('fails the job with transload_failed when the URL resolves to a private or metadata address', async () => {
    // Refused by the SSRF guard before any connection is made.
    for (const url of ['http://169.254.169.254/latest/meta-data', 'http://127.0.0.2/video.mp4']) {
      const job = await runJob({ video_url: url });
      expect(job.status).toBe('FAILED');
      expect(job.error!.code).toBe('transload_failed');
    }
  });

  it('answers 401 without an API key and 422 naming an unknown property, and no service crashes', async () => {
    const anonymous = new ApiClient(e2e.stack.apiUrl);
    expect((await anonymous.request('GET', '/v1/jobs', 'JobList')).status).toBe(401);
    const bad = await e2e.api.request<{ error: { details: Array<{ field?: string }> } }>('POST', '/v1/clean-audio-video', JOB_SCHEMA, {
      video_url: 'https://example.com/a.mp4',
      loudness: 3,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d) => d.field)).toContain('loudness');
    expect(e2e.stack.services.every((s) => s.child.exitCode === null)).toBe(true);
  });

  it('lists the jobs it ran, newest first', async () => {
    const list = await e2e.api.request<{ data: Array<{ type: string; job: CleanAudioVideoJob }> }>('GET', '/v1/jobs?type=clean-audio-video&limit=100', 'JobList');
    expect(list.status).toBe(200);
    expect(list.body.data.length).toBeGreaterThanOrEqual(5);
    expect(list.body.data.every((row) => row.type === 'clean-audio-video')).toBe(true);
  });

  // Issue 11: the example internal consumer (examples/job-counts, libs/job-events) against the real
  // event log, as its own NATS user; after the jobs above (completed and failed) and one cancelled at
  // once (or failed, when the worker was quicker), its table is the API's.
  it('keeps an account job-count table from the job events that matches GET /v1/jobs', async () => {
    const cancelled = await e2e.api.request<CleanAudioVideoJob>('POST', '/v1/clean-audio-video', JOB_SCHEMA, { video_url: `${e2e.files.baseUrl}/missing.mp4` });
    await e2e.api.request('POST', `/v1/clean-audio-video/${cancelled.body.job_id}/cancel`, JOB_SCHEMA).catch(() => undefined);
    const counts = await startJobCounts({ natsUrl: e2e.stack.infra.natsUrl('job-counts'), databaseUrl: e2e.stack.infra.env.DATABASE_URL });
    try {
      const byStatus = async () => {
        const rows: { job: { status: string } }[] = [];
        let cursor = '';
        do {
          const page = await e2e.api.request<{ data: { job: { status: string } }[]; next_cursor: string | null }>('GET', `/v1/jobs?limit=100${cursor && `&cursor=${cursor}`}`, 'JobList');
          rows.push(...page.body.data);
          cursor = page.body.next_cursor ?? '';
        } while (cursor);
        const of = (status: string) => rows.filter((row) => row.job.status === status).length;
        return { created: rows.length, completed: of('COMPLETED'), failed: of('FAILED'), cancelled: of('CANCELLED'), processing: of('PROCESSING') };
      };
      let api = await byStatus();
      let table = await counts.counts(e2e.stack.accountId);
      await waitFor('the table to catch up with the API', async () => {
        [api, table] = [await byStatus(), await counts.counts(e2e.stack.accountId)];
        return api.processing === 0 && table.created === api.created && table.completed === api.completed && table.failed === api.failed && table.cancelled === api.cancelled;
      }, 60_000, 250);
      expect(table).toMatchObject({ created: api.created, completed: api.completed, failed: api.failed, cancelled: api.cancelled });
      expect(api.failed).toBeGreaterThanOrEqual(2);
      expect(table.started).toBeGreaterThanOrEqual(api.completed);
    } finally {
      await counts.stop();
    }
  });
});
