import { join } from 'node:path';
import type { CleanAudioVideoJob } from '@vj/contracts';
import { freePort, waitFor } from '@vj/local-stack';
import { ApiClient } from '../support/api-client';
import { useE2eStack } from '../support/e2e-stack';
import { waitForFinalJob } from '../support/job-polling';
import { generateVideo } from '../support/media-tools';

const SCHEMA = 'CleanAudioVideoJob' as const;
const PATH = '/v1/clean-audio-video';

// Issue 10's topology: 2 gateways, 2 jobs services, 2 billing services and 3 render workers on one
// NATS, PostgreSQL and S3. Relays, sweepers and migrations coordinate; every job completes once and
// billing comes out exact, whichever instance took each step.
describe('N of everything: 2 gateways, 2 jobs, 2 billing, 3 workers', () => {
  const e2e = useE2eStack('e2e-scale-out', { RENDER_WORKERS: '3' });
  let gateways: ApiClient[];

  beforeAll(async () => {
    e2e.stack.addService('jobs');
    e2e.stack.addService('billing');
    const port = await freePort();
    e2e.stack.addService('gateway', { PORT: String(port) });
    const second = `http://127.0.0.1:${port}`;
    await waitFor('the second gateway', async () => (await fetch(`${second}/healthz`).catch(() => null))?.status === 200, 120_000, 250);
    gateways = [e2e.api, new ApiClient(second, e2e.stack.apiKey)];
  }, 180_000);

  it('completes 12 jobs created and read through both gateways, each charged once, the balance exact', async () => {
    const clip = join(e2e.dir, 'clip.mp4');
    await generateVideo(clip, { codec: 'h264', seconds: 2, audio: true, size: '160x120' });
    const before = (await e2e.api.request<{ balance: number; held: number }>('GET', '/v1/billing/balance', 'Balance')).body;
    const jobIds = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const created = await gateways[i % 2].request<CleanAudioVideoJob>('POST', PATH, SCHEMA, { video_url: await e2e.upload(clip, 'video/mp4') });
        expect(created.status).toBe(202);
        return created.body.job_id;
      }),
    );
    const jobs = await Promise.all(jobIds.map((jobId, i) => waitForFinalJob<CleanAudioVideoJob>(gateways[(i + 1) % 2], `${PATH}/${jobId}`, SCHEMA, 240_000)));
    expect(jobs.map((job) => job.status)).toEqual(Array(12).fill('COMPLETED'));
    await waitFor('every charge recorded and every hold released', async () => {
      const all = await Promise.all(jobIds.map(async (jobId) => (await e2e.api.request<CleanAudioVideoJob>('GET', `${PATH}/${jobId}`, SCHEMA)).body));
      const balance = (await e2e.api.request<{ held: number }>('GET', '/v1/billing/balance', 'Balance')).body;
      return all.every((job) => typeof job.credits_charged === 'number') && balance.held === 0;
    }, 60_000, 250);
    const charged = await Promise.all(jobIds.map(async (jobId) => (await gateways[0].request<CleanAudioVideoJob>('GET', `${PATH}/${jobId}`, SCHEMA)).body.credits_charged ?? 0));
    const after = (await e2e.api.request<{ balance: number; held: number }>('GET', '/v1/billing/balance', 'Balance')).body;
    expect(after).toMatchObject({ balance: before.balance - charged.reduce((a, b) => a + b, 0), held: 0 });
    const ledger = await e2e.api.request<{ data: { kind: string; job_id: string | null }[] }>('GET', '/v1/billing/ledger?limit=100', 'LedgerPage');
    const charges = ledger.body.data.filter((entry) => entry.kind === 'charge' && jobIds.includes(entry.job_id ?? ''));
    expect(charges).toHaveLength(12);
  });
});
