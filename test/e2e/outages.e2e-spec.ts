import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CleanAudioVideoJob } from '@vj/contracts';
import { waitFor } from '@vj/local-stack';
import { useE2eStack } from '../support/e2e-stack';
import { waitForFinalJob } from '../support/job-polling';
import { generateVideo } from '../support/media-tools';
import { busyWorker } from '../support/processes';

const SCHEMA = 'CleanAudioVideoJob' as const;
const PATH = '/v1/clean-audio-video';

// Issue 10's outages, short: an outage of ours is not the job's failure, and a graceful stop hands the
// job to an idle worker at once without spending an attempt (decision 0027). bench/ holds the long runs.
describe('outages and deploys, all four services', () => {
  // One failed attempt fails a job here: an outage or a stop that spent one would fail it.
  const e2e = useE2eStack('e2e-outages', { RENDER_WORKERS: '2', WORK_MAX_ATTEMPTS: '1' });

  const create = async (videoUrl: string): Promise<string> => {
    const created = await e2e.api.request<CleanAudioVideoJob>('POST', PATH, SCHEMA, { video_url: videoUrl });
    expect(created.status).toBe(202);
    return created.body.job_id;
  };
  const balance = async () => (await e2e.api.request<{ balance: number; held: number }>('GET', '/v1/billing/balance', 'Balance')).body;

  it('completes every queued job through a 20 s outage of the jobs service, and charges each once', async () => {
    const clip = join(e2e.dir, 'queued.mp4');
    await generateVideo(clip, { codec: 'h264', seconds: 8, audio: true, size: '160x120' });
    const before = await balance();
    const jobIds: string[] = [];
    for (let i = 0; i < 4; i++) jobIds.push(await create(await e2e.upload(clip, 'video/mp4')));
    await busyWorker(e2e.stack.services);

    const jobsService = e2e.stack.services.find((s) => s.name === 'jobs' && s.child.exitCode === null)!;
    await jobsService.stop();
    const stopped = Date.now();
    // Reads of a job and of its quality report (one port to the jobs service) are an outage of ours,
    // not a 500 nor a 404.
    for (const path of [`${PATH}/${jobIds[0]}`, `${PATH}/${jobIds[0]}/report`]) {
      const refused = await e2e.api.request<{ error: { code: string } }>('GET', path, SCHEMA);
      expect({ path, status: refused.status, code: refused.body.error.code, retryAfter: refused.headers.has('retry-after') }).toEqual({ path, status: 503, code: 'unavailable', retryAfter: true });
    }
    await sleep(Math.max(0, 20_000 - (Date.now() - stopped)));
    e2e.stack.addService('jobs');
    await waitFor('the jobs service back', async () => (await fetch(`${e2e.stack.apiUrl}/healthz`)).status === 200, 60_000, 250);

    const jobs = [];
    for (const jobId of jobIds) jobs.push(await waitForFinalJob<CleanAudioVideoJob>(e2e.api, `${PATH}/${jobId}`, SCHEMA, 240_000));
    expect(jobs.map((job) => job.status)).toEqual(['COMPLETED', 'COMPLETED', 'COMPLETED', 'COMPLETED']);
    await waitFor('every charge recorded', async () => {
      const all = await Promise.all(jobIds.map(async (jobId) => (await e2e.api.request<CleanAudioVideoJob>('GET', `${PATH}/${jobId}`, SCHEMA)).body));
      return all.every((job) => typeof job.credits_charged === 'number');
    }, 60_000, 250);
    const charged = (await Promise.all(jobIds.map(async (jobId) => (await e2e.api.request<CleanAudioVideoJob>('GET', `${PATH}/${jobId}`, SCHEMA)).body.credits_charged ?? 0))).reduce((a, b) => a + b, 0);
    await waitFor('holds released', async () => (await balance()).held === 0, 30_000, 250);
    expect((await balance()).balance).toBe(before.balance - charged);
  });

  it('completes a job through a PostgreSQL restart, answering 503 with Retry-After meanwhile, and charges it once', async () => {
    const postgres = e2e.stack.infra.postgres;
    if (!postgres) {
      console.warn('skipped: the stack was given a DATABASE_URL, there is no PostgreSQL of its own to restart');
      return;
    }
    const clip = join(e2e.dir, 'through-restart.mp4');
    await generateVideo(clip, { codec: 'h264', seconds: 8, audio: true, size: '160x120' });
    const before = await balance();
    const later = await e2e.upload(clip, 'video/mp4');
    const jobId = await create(await e2e.upload(clip, 'video/mp4'));
    await busyWorker(e2e.stack.services);

    await postgres.pause();
    try {
      // The gateway's own tables, or the jobs service's: either way an outage of ours, not a 500.
      const refused = await e2e.api.request<{ error: { code: string } }>('POST', PATH, SCHEMA, { video_url: later });
      expect({ status: refused.status, code: refused.body.error.code, retryAfter: refused.headers.has('retry-after') }).toEqual({ status: 503, code: 'unavailable', retryAfter: true });
      await sleep(15_000);
    } finally {
      await postgres.resume();
    }

    const job = await waitForFinalJob<CleanAudioVideoJob>(e2e.api, `${PATH}/${jobId}`, SCHEMA, 240_000);
    expect(job.status).toBe('COMPLETED');
    await waitFor('its charge recorded', async () => typeof (await e2e.api.request<CleanAudioVideoJob>('GET', `${PATH}/${jobId}`, SCHEMA)).body.credits_charged === 'number', 60_000, 250);
    const charged = (await e2e.api.request<CleanAudioVideoJob>('GET', `${PATH}/${jobId}`, SCHEMA)).body.credits_charged ?? 0;
    await waitFor('holds released', async () => (await balance()).held === 0, 30_000, 250);
    expect((await balance()).balance).toBe(before.balance - charged);
  });

  it('finishes a job whose worker is stopped three times (a rolling deploy), each time taken by an idle worker at once', async () => {
    const clip = join(e2e.dir, 'long.mp4');
    await generateVideo(clip, { codec: 'h264', seconds: 240, audio: true, size: '160x120' });
    const jobId = await create(await e2e.upload(clip, 'video/mp4'));
    const handOvers: number[] = [];
    for (let stop = 0; stop < 3; stop++) {
      const worker = await busyWorker(e2e.stack.services);
      e2e.stack.addRenderWorker();
      const stoppedAt = Date.now();
      await worker.stop();
      // The job is handed back at once: another worker runs its ffmpeg within seconds, not after a retry delay.
      const next = await busyWorker(e2e.stack.services.filter((s) => s !== worker), 20_000);
      handOvers.push(Date.now() - stoppedAt);
      // busyWorker saw its ffmpeg; a second look could fall between the job's ffmpeg steps.
      expect(next.child.pid).not.toBe(worker.child.pid);
    }
    const job = await waitForFinalJob<CleanAudioVideoJob>(e2e.api, `${PATH}/${jobId}`, SCHEMA, 240_000);
    expect(job.status).toBe('COMPLETED');
    // Under 10 s each: the old retry delay after a graceful stop was 10 s, then 60 s.
    expect(Math.max(...handOvers)).toBeLessThan(10_000);
  });
});
