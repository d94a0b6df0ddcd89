import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import type { VideoBackgroundRemovalJob } from '@vj/contracts';
import { waitFor } from '@vj/local-stack';
import { decodeGray, decodeWebmAlpha, meanAbsoluteDifference, streamsOf, videoFrameTimes } from '../../apps/render-worker/src/matting/testing/matte-tools';
import { useE2eStack } from '../support/e2e-stack';
import { waitForFinalJob, waitForSettledJob } from '../support/job-polling';
import { generateVideo } from '../support/media-tools';
import { busyWorker, childrenOf, killHard } from '../support/processes';

const SCHEMA = 'VideoBackgroundRemovalJob' as const;
const PATH = '/v1/video-background-removal';
const SECONDS = 8;
const FRAMES = SECONDS * 25;

// Issue 40 through the REST API (decision 0101): a video past BACKGROUND_REMOVAL_SEGMENT_AFTER_SECONDS
// is planned by one worker and run as a plate pass, segments and a join by three; short clips and
// segments of 2 s keep it fast.
describe('a long background removal spread over three render workers', () => {
  const e2e = useE2eStack('e2e-long-video', {
    RENDER_WORKERS: '3',
    WORK_ACK_WAIT_SECONDS: '3',
    BACKGROUND_REMOVAL_SEGMENT_AFTER_SECONDS: '3',
    BACKGROUND_REMOVAL_SEGMENT_SECONDS: '2',
    BACKGROUND_REMOVAL_WARMUP_SECONDS: '1',
  });
  let db: Client;
  let clip: string;

  beforeAll(async () => {
    db = new Client({ connectionString: e2e.stack.infra.env.DATABASE_URL });
    // The stack's own afterAll, which runs first, stops PostgreSQL under this connection.
    db.on('error', () => undefined);
    await db.connect();
    clip = join(e2e.dir, 'talk.mp4');
    await generateVideo(clip, { codec: 'h264', seconds: SECONDS, audio: true, size: '160x120' });
  });

  afterAll(async () => {
    await db?.end();
  });

  async function create(): Promise<string> {
    const created = await e2e.api.request<VideoBackgroundRemovalJob>('POST', PATH, SCHEMA, { video_url: await e2e.upload(clip, 'video/mp4'), refine_foreground_edges: false });
    expect(created.status).toBe(202);
    return created.body.job_id;
  }

  // The job's pieces as "<piece> <index> <sent|waiting> <done|open>".
  async function piecesOf(jobId: string): Promise<string[]> {
    const { rows } = await db.query<{ piece: string; index: number; sent: boolean; done: boolean }>(
      `SELECT piece, index, sent_at IS NOT NULL AS sent, done_at IS NOT NULL AS done FROM jobs.job_piece WHERE job_id = $1 ORDER BY piece, index`,
      [jobId],
    );
    return rows.map((row) => `${row.piece} ${row.index} ${row.sent ? 'sent' : 'waiting'} ${row.done ? 'done' : 'open'}`);
  }
  const segmentsSent = async (jobId: string) => (await piecesOf(jobId)).some((piece) => piece.startsWith('segment') && piece.includes(' sent '));

  async function expectWholeResult(job: VideoBackgroundRemovalJob, name: string): Promise<void> {
    expect(job.status).toBe('COMPLETED');
    const [file] = job.result!.files!;
    const webm = await e2e.download(file!.url, name);
    expect((await videoFrameTimes(webm)).length).toBe(FRAMES);
    expect((await streamsOf(webm)).audio).toHaveLength(1);
  }

  const workers = () => e2e.stack.services.filter((s) => s.name.startsWith('render-worker') && s.child.exitCode === null && s.child.signalCode === null);

  async function chargesOf(jobId: string): Promise<number> {
    const ledger = await e2e.api.request<{ data: { kind: string; job_id: string | null }[] }>('GET', '/v1/billing/ledger?limit=100', 'LedgerPage');
    return ledger.body.data.filter((entry) => entry.kind === 'charge' && entry.job_id === jobId).length;
  }

  it('completes as one job with every frame and the sound, its pieces run on several workers, charged once for its duration', async () => {
    const estimate = await e2e.api.request<{ credits_estimated: number; duration_seconds: number }>('POST', `/v1/estimates?type=video-background-removal`, 'Estimate', {
      video_url: await e2e.upload(clip, 'video/mp4'),
      refine_foreground_edges: false,
    });
    const jobId = await create();
    // How many workers run ffmpeg at once while the job runs: its pieces are shared out.
    let mostBusy = 0;
    const watching = setInterval(() => (mostBusy = Math.max(mostBusy, workers().filter((worker) => childrenOf(worker).some((child) => child.command === 'ffmpeg')).length)), 50);
    const job = await waitForSettledJob<VideoBackgroundRemovalJob>(e2e.api, `${PATH}/${jobId}`, SCHEMA, 240_000).finally(() => clearInterval(watching));
    expect(mostBusy).toBeGreaterThanOrEqual(2);
    await expectWholeResult(job, 'whole.webm');
    expect(await piecesOf(jobId)).toEqual(['join 0 sent done', 'pass 0 sent done', ...[0, 1, 2, 3].map((index) => `segment ${index} sent done`)]);
    expect(job.credits_charged).toBe(estimate.body.credits_estimated);
    expect(await chargesOf(jobId)).toBe(1);

    // Its segments kept their mattes, joined into the job's (decision 0106): an export of the long job
    // is a deliverable with every frame, the matte the segments computed, and the sound.
    const created = await e2e.api.request<VideoBackgroundRemovalJob>('POST', `${PATH}/${jobId}/exports`, SCHEMA, { output_codec: 'h264' });
    expect(created.status).toBe(202);
    const exported = await waitForFinalJob<VideoBackgroundRemovalJob>(e2e.api, `${PATH}/${created.body.job_id}`, SCHEMA, 120_000);
    expect(exported.status).toBe('COMPLETED');
    const [rgb, matte] = exported.result!.files!;
    const [rgbPath, mattePath] = [await e2e.download(rgb!.url, 'export-rgb.mp4'), await e2e.download(matte!.url, 'export-matte.mp4')];
    expect(await videoFrameTimes(rgbPath)).toHaveLength(FRAMES);
    expect((await streamsOf(rgbPath)).audio).toHaveLength(1);
    const [first, again] = [await decodeWebmAlpha(await e2e.download(job.result!.files![0]!.url, 'source.webm'), 160, 120), await decodeGray(mattePath, 160, 120)];
    expect(again).toHaveLength(FRAMES);
    // Through two lossy encodes of a 160x120 picture: a few levels, each frame its own.
    const differences = again.map((alpha, i) => meanAbsoluteDifference(alpha, first[i]!));
    expect(differences.reduce((sum, difference) => sum + difference, 0) / FRAMES).toBeLessThan(6);
    expect(Math.max(...differences)).toBeLessThan(12);
  }, 360_000);

  it('finishes a job whose worker was killed mid-piece, the piece run again elsewhere, charged once', async () => {
    const jobId = await create();
    await waitFor('segments sent', () => segmentsSent(jobId), 120_000, 100);
    const worker = await busyWorker(e2e.stack.services, 60_000);
    const replacement = e2e.stack.addRenderWorker();
    await killHard(worker);
    const job = await waitForSettledJob<VideoBackgroundRemovalJob>(e2e.api, `${PATH}/${jobId}`, SCHEMA, 240_000);
    await expectWholeResult(job, 'recovered.webm');
    expect(replacement.child.exitCode).toBeNull();
    expect(await chargesOf(jobId)).toBe(1);
  }, 240_000);

  it('cancels a job mid-way: every worker stops within seconds, no piece is sent after, nothing is charged', async () => {
    const jobId = await create();
    await waitFor('segments sent', () => segmentsSent(jobId), 120_000, 100);
    await busyWorker(e2e.stack.services, 60_000);
    const cancelled = await e2e.api.request<VideoBackgroundRemovalJob>('POST', `${PATH}/${jobId}/cancel`, SCHEMA);
    expect(cancelled.body.status).toBe('CANCELLED');
    await waitFor('every worker to stop its processes', async () => workers().every((worker) => !childrenOf(worker).some((child) => child.command === 'ffmpeg')), 10_000, 50);
    const atCancel = await piecesOf(jobId);
    await sleep(2_000);
    expect(await piecesOf(jobId)).toEqual(atCancel.map((piece) => piece.replace(/ open$/, ' done')));
    expect((await waitForFinalJob<VideoBackgroundRemovalJob>(e2e.api, `${PATH}/${jobId}`, SCHEMA)).status).toBe('CANCELLED');
    await waitFor('the hold released', async () => (await e2e.api.request<{ held: number }>('GET', '/v1/billing/balance', 'Balance')).body.held === 0, 30_000, 250);
    expect(await chargesOf(jobId)).toBe(0);
  }, 240_000);

  it('refuses an 11-minute video with input_validation before any processing, and charges nothing', async () => {
    const long = join(e2e.dir, 'eleven-minutes.mp4');
    await generateVideo(long, { codec: 'h264', seconds: 660, audio: false, size: '64x48' });
    const created = await e2e.api.request<VideoBackgroundRemovalJob>('POST', PATH, SCHEMA, { video_url: await e2e.upload(long, 'video/mp4') });
    const job = await waitForFinalJob<VideoBackgroundRemovalJob>(e2e.api, `${PATH}/${created.body.job_id}`, SCHEMA, 120_000);
    expect(job).toMatchObject({ status: 'FAILED', error: { code: 'input_validation', details: [expect.objectContaining({ type: 'video_too_long', field: 'video_url' })] } });
    expect(await piecesOf(job.job_id)).toEqual([]);
    await waitFor('the hold released', async () => (await e2e.api.request<{ held: number }>('GET', '/v1/billing/balance', 'Balance')).body.held === 0, 30_000, 250);
    expect(await chargesOf(job.job_id)).toBe(0);
  }, 240_000);
});
