import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CleanAudioVideoJob } from '@vj/contracts';
import { waitFor } from '@vj/local-stack';
import { useE2eStack } from '../support/e2e-stack';
import { waitForFinalJob } from '../support/job-polling';
import { generateVideo } from '../support/media-tools';
import { busyWorker, killHard } from '../support/processes';

const SCHEMA = 'CleanAudioVideoJob' as const;
const PATH = '/v1/clean-audio-video';

// Issue 10's chaos, short (npm run chaos is the long one): two crashes of ours while jobs run, and every
// job still COMPLETED, charged once, with results that download and billing's identity exact.
describe('chaos, short: kill -9 of the jobs service and of billing while jobs run', () => {
  const e2e = useE2eStack('e2e-chaos', { RENDER_WORKERS: '2' });

  const balance = async () => (await e2e.api.request<{ balance: number; held: number }>('GET', '/v1/billing/balance', 'Balance')).body;
  const live = (name: string) => e2e.stack.services.find((s) => s.name === name && s.child.exitCode === null && s.child.signalCode === null)!;
  const jobOf = async (jobId: string) => (await e2e.api.request<CleanAudioVideoJob>('GET', `${PATH}/${jobId}`, SCHEMA)).body;

  it('completes every job, charges each once and keeps every result', async () => {
    const clip = join(e2e.dir, 'chaos.mp4');
    await generateVideo(clip, { codec: 'h264', seconds: 12, audio: true, size: '160x120' });
    const before = await balance();
    const jobIds: string[] = [];
    for (let i = 0; i < 6; i++) {
      const created = await e2e.api.request<CleanAudioVideoJob>('POST', PATH, SCHEMA, { video_url: await e2e.upload(clip, 'video/mp4') });
      expect(created.status).toBe(202);
      jobIds.push(created.body.job_id);
    }

    for (const service of ['jobs', 'billing'] as const) {
      await busyWorker(e2e.stack.services);
      await killHard(live(service));
      await sleep(1_000);
      e2e.stack.addService(service);
      await waitFor(`${service} back`, async () => (await fetch(`${e2e.stack.apiUrl}/healthz`)).status === 200, 60_000, 250);
    }

    const jobs = [];
    for (const jobId of jobIds) jobs.push(await waitForFinalJob<CleanAudioVideoJob>(e2e.api, `${PATH}/${jobId}`, SCHEMA, 240_000));
    expect(jobs.map((job) => job.status)).toEqual(jobIds.map(() => 'COMPLETED'));
    await waitFor('every charge recorded', async () => (await Promise.all(jobIds.map(jobOf))).every((job) => typeof job.credits_charged === 'number'), 60_000, 250);
    const charged = (await Promise.all(jobIds.map(jobOf))).reduce((sum, job) => sum + (job.credits_charged ?? 0), 0);
    await waitFor('holds released', async () => (await balance()).held === 0, 30_000, 250);
    expect((await balance()).balance).toBe(before.balance - charged);
    for (const job of jobs) expect((await fetch(job.result!.video.url)).status).toBe(200);
  });
});
