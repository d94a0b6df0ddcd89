import { readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { BalanceV1, CleanAudioVideoJob, LedgerEntryV1, UsageRowV1 } from '@vj/contracts';
import type { CleanAudioVideoReport } from '@vj/sdk';
import { waitFor } from '@vj/local-stack';
import { runOnce } from '../../scripts/stack/service-process';
import { ApiClient } from '../support/api-client';
import { useE2eStack } from '../support/e2e-stack';
import { waitForFinalJob } from '../support/job-polling';
import { decodeAudio, generateVideo, probeStreams, videoPacketHashes } from '../support/media-tools';

const CLI = join('apps', 'gateway', 'src', 'cli', 'main.ts');
const JOB_SCHEMA = 'CleanAudioVideoJob' as const;

// The public bodies (their JSON Schemas are checked by ApiClient).
type JobList = { data: { job: CleanAudioVideoJob }[] };
type LedgerPage = { data: LedgerEntryV1[] };
function rmsDifference(a: Float32Array, b: Float32Array): number {
  const length = Math.min(a.length, b.length);
  let sum = 0;
  for (let i = 0; i < length; i++) sum += (a[i] - b[i]) ** 2;
  return Math.sqrt(sum / length);
}

type UsageReport = { rows: (Omit<UsageRowV1, 'key'> & { job_type?: string; day?: string })[]; totals: Omit<UsageRowV1, 'key'> };

describe('credits through the REST API, all four services', () => {
  // Exact quotes are asserted here, so they must come from the probe even on a loaded CI machine; the
  // fallback on a slow probe is tested with fakes (gateway) and in bench/quotes.
  const e2e = useE2eStack('e2e-billing', { ESTIMATE_PROBE_TIMEOUT_MS: '15000', DURATION_PROBE_TIMEOUT_MS: '14000' });
  let shortClip: string;

  beforeAll(async () => {
    shortClip = join(e2e.dir, 'short.mp4');
    await generateVideo(shortClip, { codec: 'h264', seconds: 1, audio: true });
  });

  // Uploads belong to the account that made them: each test account uploads its own.
  const upload = async (api: ApiClient, path: string): Promise<string> => {
    const created = await api.request<{ upload_url: string; video_url: string }>('POST', '/v1/uploads', 'Upload', {
      file_name: basename(path),
      content_type: 'video/mp4',
      file_size: statSync(path).size,
    });
    expect((await fetch(created.body.upload_url, { method: 'PUT', body: readFileSync(path), headers: { 'content-type': 'video/mp4' } })).status).toBe(200);
    return created.body.video_url;
  };

  // A new account through the operator CLI, and an API client holding its key.
  const accountWith = async (credits: number): Promise<{ accountId: string; apiKey: string; api: ApiClient }> => {
    const env = { ...process.env, ...e2e.stack.infra.env };
    const created = JSON.parse(await runOnce(CLI, ['account', 'create', '--name', 'billing-e2e', '--credits', String(credits)], env)) as {
      account_id: string;
      api_key: string;
    };
    return { accountId: created.account_id, apiKey: created.api_key, api: new ApiClient(e2e.stack.apiUrl, created.api_key) };
  };
  const balanceOf = async (api: ApiClient) => (await api.request<BalanceV1>('GET', '/v1/billing/balance', 'Balance')).body;
  const ledgerOf = async (api: ApiClient) => (await api.request<LedgerPage>('GET', '/v1/billing/ledger?limit=100', 'LedgerPage')).body.data;
  const create = (api: ApiClient, body: Record<string, unknown>) => api.request<CleanAudioVideoJob>('POST', '/v1/clean-audio-video', JOB_SCHEMA, body);
  const final = (api: ApiClient, jobId: string) => waitForFinalJob<CleanAudioVideoJob>(api, `/v1/clean-audio-video/${jobId}`, JOB_SCHEMA, 240_000);

  it('quotes on the create response only, charges the completed job, and its reports add up to the ledger', async () => {
    const { accountId, apiKey, api } = await accountWith(100);
    const input = join(e2e.dir, 'three.mp4');
    await generateVideo(input, { codec: 'h264', seconds: 3, audio: true });
    const videoUrl = await upload(api, input);

    const quoted = await api.request('POST', '/v1/estimates?type=clean-audio-video', 'Estimate', { video_url: videoUrl });
    expect(quoted).toMatchObject({ status: 200, body: { credits_estimated: 5, basis: 'probed_duration' } });
    expect((await api.request<JobList>('GET', '/v1/jobs', 'JobList')).body.data).toEqual([]);

    const created = await create(api, { video_url: videoUrl });
    expect(created.status).toBe(202);
    expect(created.body).toEqual({ job_id: expect.any(String), status: 'PROCESSING', credits_estimated: 5 });
    const read = await api.request<CleanAudioVideoJob>('GET', `/v1/clean-audio-video/${created.body.job_id}`, JOB_SCHEMA);
    expect(read.body).not.toHaveProperty('credits_estimated');

    const job = await final(api, created.body.job_id);
    expect(job.status).toBe('COMPLETED');
    expect(job).not.toHaveProperty('credits_estimated');
    // credits_charged follows COMPLETED as soon as billing's charge_captured is applied.
    const charged = await waitForCharge(api, created.body.job_id);
    expect(charged.credits_charged).toBe(5);
    const listed = (await api.request<JobList>('GET', '/v1/jobs', 'JobList')).body.data;
    expect(listed.map((item) => item.job)).toEqual([expect.not.objectContaining({ credits_estimated: expect.anything() })]);

    expect(await balanceOf(api)).toEqual({ account_id: accountId, balance: 95, held: 0, available: 95 });
    const entries = await ledgerOf(api);
    expect(entries.map((e) => [e.kind, e.credits, e.job_id])).toEqual([
      ['charge', 5, job.job_id],
      ['release', 5, job.job_id],
      ['hold', 5, job.job_id],
      ['grant', 100, null],
    ]);
    const chargedInLedger = entries.filter((e) => e.kind === 'charge').reduce((sum, e) => sum + e.credits, 0);
    const usage = (await api.request<UsageReport>('GET', '/v1/billing/usage?group_by=job_type', 'UsageReport')).body;
    expect(usage.totals).toEqual({ jobs: 1, billed_seconds: 3, credits: chargedInLedger });
    expect(usage.rows).toEqual([{ job_type: 'clean-audio-video', jobs: 1, billed_seconds: 3, credits: 5 }]);
    const csv = await fetch(`${e2e.stack.apiUrl}/v1/billing/usage?group_by=job_type`, { headers: { authorization: `Bearer ${apiKey}`, accept: 'text/csv' } });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect((await csv.text()).trim().split(/\r?\n/)).toEqual(['job_type,jobs,billed_seconds,credits', 'clean-audio-video,1,3,5', 'total,1,3,5']);
  });

  it('fails a job the credits do not cover with insufficient_credits and leaves the balance unchanged', async () => {
    const { accountId, api } = await accountWith(3);
    const created = await create(api, { video_url: await upload(api, shortClip) });
    expect(created.body.credits_estimated).toBe(5);
    const job = await final(api, created.body.job_id);
    expect(job.status).toBe('FAILED');
    expect(job.error).toEqual({ code: 'insufficient_credits', message: expect.stringContaining('(3)'), details: null });
    expect(await balanceOf(api)).toEqual({ account_id: accountId, balance: 3, held: 0, available: 3 });
    expect((await ledgerOf(api)).map((e) => e.kind)).toEqual(['grant']);
  });

  it('charges nothing for a cancelled job', async () => {
    const { accountId, api } = await accountWith(50);
    const created = await create(api, { video_url: await upload(api, shortClip) });
    const cancelled = await api.request<CleanAudioVideoJob>('POST', `/v1/clean-audio-video/${created.body.job_id}/cancel`, JOB_SCHEMA);
    expect(cancelled.body.status).toBe('CANCELLED');
    // Billing may see the job before or after the cancel: a hold and its release, or nothing at all.
    const settled = async () => {
      const kinds = (await ledgerOf(api)).map((e) => e.kind);
      return (await balanceOf(api)).held === 0 && kinds.filter((k) => k === 'hold').length === kinds.filter((k) => k === 'release').length;
    };
    await waitFor('the hold released', settled, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await settled()).toBe(true);
    expect(await balanceOf(api)).toEqual({ account_id: accountId, balance: 50, held: 0, available: 50 });
    expect((await ledgerOf(api)).filter((e) => e.kind === 'charge')).toEqual([]);
  });

  it('runs at most as many of 50 concurrent jobs as the credits cover; the rest fail with insufficient_credits', async () => {
    const { accountId, api } = await accountWith(50);
    const videoUrl = await upload(api, shortClip);
    // Quoted once first, as a client would: the 50 creates then share its probed duration, however slow
    // the workers' probes are while this machine is busy (the gateway's reuse is tested in jobs-api).
    const quoted = await api.request('POST', '/v1/estimates?type=clean-audio-video', 'Estimate', { video_url: videoUrl });
    expect(quoted).toMatchObject({ status: 200, body: { credits_estimated: 5, basis: 'probed_duration' } });
    const created = await Promise.all(Array.from({ length: 50 }, () => create(api, { video_url: videoUrl })));
    expect(created.map((c) => c.body.credits_estimated)).toEqual(Array(50).fill(5));
    const jobs = await Promise.all(created.map((c) => final(api, c.body.job_id)));
    const completed = jobs.filter((j) => j.status === 'COMPLETED');
    const refused = jobs.filter((j) => j.status === 'FAILED' && j.error?.code === 'insufficient_credits');
    expect(completed.length).toBeLessThanOrEqual(10);
    expect(completed.length + refused.length).toBe(50);
    const entries = await ledgerOf(api);
    expect(entries.filter((e) => e.kind === 'hold')).toHaveLength(completed.length);
    expect(Math.min(...entries.map((e) => e.balance_after - e.held_after))).toBeGreaterThanOrEqual(0);
    await waitFor('every hold settled', async () => (await balanceOf(api)).held === 0, 30_000);
    // A charge is recorded a moment after its job reads COMPLETED: counted once every hold is settled.
    const charged = (await ledgerOf(api)).filter((e) => e.kind === 'charge').reduce((sum, e) => sum + e.credits, 0);
    const balance = await balanceOf(api);
    expect(balance).toEqual({ account_id: accountId, balance: 50 - charged, held: 0, available: 50 - charged });
    expect(balance.available).toBeGreaterThanOrEqual(0);
  }, 300_000);

  // Issue 42 item 3, decision 0093: an export remixes a COMPLETED job's kept stems as a new job, at its own price.
  it('exports a completed job at another strength as a new job charged the export price; the picture stays the source’s', async () => {
    const { accountId, apiKey, api } = await accountWith(100);
    const input = join(e2e.dir, 'exported.mp4');
    await generateVideo(input, { codec: 'h264', seconds: 3, audio: true });
    const source = (await create(api, { video_url: await upload(api, input), strength: 0.9 })).body;
    expect((await final(api, source.job_id)).status).toBe('COMPLETED');
    const exportsOf = (jobId: string) => `/v1/clean-audio-video/${jobId}/exports`;

    const exported = await api.request<CleanAudioVideoJob>('POST', exportsOf(source.job_id), JOB_SCHEMA, { strength: 0.2 }, { 'Idempotency-Key': 'export-1' });
    expect(exported.status).toBe(202);
    // 3 s at the export line's 0.1 credit a second, rounded up: 1 credit, where the job cost 5.
    expect(exported.body).toEqual({ job_id: expect.any(String), status: 'PROCESSING', credits_estimated: 1 });
    expect(exported.body.job_id).not.toBe(source.job_id);
    const replayed = await api.request<CleanAudioVideoJob>('POST', exportsOf(source.job_id), JOB_SCHEMA, { strength: 0.2 }, { 'Idempotency-Key': 'export-1' });
    expect(replayed.body.job_id).toBe(exported.body.job_id);
    expect((await api.request('POST', exportsOf(source.job_id), 'RequestError', { strength: 0.3 }, { 'Idempotency-Key': 'export-1' })).status).toBe(409);

    const done = await final(api, exported.body.job_id);
    expect(done.status).toBe('COMPLETED');
    expect((await waitForCharge(api, exported.body.job_id)).credits_charged).toBe(1);
    const [sourceFile, exportFile] = await Promise.all([
      e2e.download((await final(api, source.job_id)).result!.video.url, 'export-source.mp4'),
      e2e.download(done.result!.video.url, 'export.mp4'),
    ]);
    expect(await videoPacketHashes(exportFile)).toEqual(await videoPacketHashes(input));
    expect((await probeStreams(exportFile)).audio).toEqual([expect.objectContaining({ codec_name: 'aac', sample_rate: '48000', channels: 1 })]);
    // Strength 0.2 keeps more of the noise than 0.9 did: the two soundtracks differ.
    const [strong, weak] = await Promise.all([decodeAudio(sourceFile), decodeAudio(exportFile)]);
    expect(rmsDifference(strong, weak)).toBeGreaterThan(0.001);
    await waitFor('every hold settled', async () => (await balanceOf(api)).held === 0, 30_000);
    expect(await balanceOf(api)).toEqual({ account_id: accountId, balance: 94, held: 0, available: 94 });

    // Another account's job, an export's own id, a bad body, then the source deleted.
    const other = await accountWith(10);
    expect(await other.api.request('POST', exportsOf(source.job_id), 'RequestError', {})).toMatchObject({ status: 404 });
    expect(await other.api.request('GET', `/v1/clean-audio-video/${source.job_id}/report`, 'RequestError')).toMatchObject({ status: 404 });
    // The export measures its own delivery; its input is the source's, as the source measured it.
    const [sourceReport, exportReport] = await Promise.all(
      [source.job_id, exported.body.job_id].map(async (jobId) => (await api.request<CleanAudioVideoReport>('GET', `/v1/clean-audio-video/${jobId}/report`, 'CleanAudioVideoReport')).body),
    );
    expect(exportReport.input).toEqual(sourceReport.input);
    expect(exportReport.picture.identical).toBe(true);
    expect(await api.request('POST', exportsOf(exported.body.job_id), 'RequestError', {})).toMatchObject({ status: 404, body: { error: { message: expect.stringContaining('itself an export') } } });
    expect(await api.request('POST', exportsOf(source.job_id), 'RequestError', { strength: 2 })).toMatchObject({ status: 422 });
    expect(await api.request('POST', exportsOf(source.job_id), 'RequestError', { video_url: 'https://example.com/a.mp4' })).toMatchObject({ status: 422 });
    const deleted = await fetch(`${e2e.stack.apiUrl}/v1/clean-audio-video/${source.job_id}`, { method: 'DELETE', headers: { authorization: `Bearer ${apiKey}` } });
    expect(deleted.status).toBe(204);
    expect(await api.request('POST', exportsOf(source.job_id), 'RequestError', {})).toMatchObject({ status: 404, body: { error: { message: expect.stringContaining('deleted') } } });
  }, 300_000);

  it('refuses to export a job that is not COMPLETED with 409', async () => {
    const { api } = await accountWith(20);
    const input = join(e2e.dir, 'still-running.mp4');
    await generateVideo(input, { codec: 'h264', seconds: 1, audio: true });
    const created = (await create(api, { video_url: await upload(api, input) })).body;
    const cancelled = await api.request<CleanAudioVideoJob>('POST', `/v1/clean-audio-video/${created.job_id}/cancel`, JOB_SCHEMA);
    if (cancelled.body.status !== 'CANCELLED') return; // finished before the cancel: nothing to test on this run
    expect(await api.request('POST', `/v1/clean-audio-video/${created.job_id}/exports`, 'RequestError', {})).toMatchObject({
      status: 409,
      body: { error: { code: 'conflict', message: expect.stringContaining('only a COMPLETED job') } },
    });
    expect(await api.request('GET', `/v1/clean-audio-video/${created.job_id}/report`, 'RequestError')).toMatchObject({ status: 409, body: { error: { code: 'conflict' } } });
  });

  async function waitForCharge(api: ApiClient, jobId: string): Promise<CleanAudioVideoJob> {
    let job: CleanAudioVideoJob | undefined;
    await waitFor('credits_charged', async () => {
      job = (await api.request<CleanAudioVideoJob>('GET', `/v1/clean-audio-video/${jobId}`, JOB_SCHEMA)).body;
      return job.credits_charged !== undefined;
    }, 30_000);
    return job!;
  }
});
