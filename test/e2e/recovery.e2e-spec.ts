import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client as MinioClient } from 'minio';
import type { CleanAudioVideoJob } from '@vj/contracts';
import { waitFor } from '@vj/local-stack';
import { useE2eStack } from '../support/e2e-stack';
import { waitForFinalJob } from '../support/job-polling';
import { generateVideo, videoPacketHashes } from '../support/media-tools';
import { busyWorker, childrenOf, killHard } from '../support/processes';

const SCHEMA = 'CleanAudioVideoJob' as const;

describe('cancel and crash recovery, all four services', () => {
  const e2e = useE2eStack('e2e-recovery', { WORK_ACK_WAIT_SECONDS: '3' });
  let longInput: string;

  beforeAll(async () => {
    longInput = join(e2e.dir, 'long.mp4');
    await generateVideo(longInput, { codec: 'h264', seconds: 240, audio: true, size: '160x120' });
  });

  async function create(videoUrl: string): Promise<string> {
    const created = await e2e.api.request<CleanAudioVideoJob>('POST', '/v1/clean-audio-video', SCHEMA, { video_url: videoUrl });
    expect(created.status).toBe(202);
    return created.body.job_id;
  }

  it('cancels a running job: the worker stops ffmpeg within seconds, uploads nothing, and the job stays CANCELLED', async () => {
    const jobId = await create(await e2e.upload(longInput, 'video/mp4'));
    const worker = await busyWorker(e2e.stack.services);

    const cancelled = await e2e.api.request<CleanAudioVideoJob>('POST', `/v1/clean-audio-video/${jobId}/cancel`, SCHEMA);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('CANCELLED');
    await waitFor('the worker to stop its processes', async () => childrenOf(worker).length === 0, 5_000, 50);

    const again = await e2e.api.request<{ error: { code: string } }>('POST', `/v1/clean-audio-video/${jobId}/cancel`, SCHEMA);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');

    await sleep(2_000);
    const job = await e2e.api.request<CleanAudioVideoJob>('GET', `/v1/clean-audio-video/${jobId}`, SCHEMA);
    expect(job.body).toEqual({ job_id: jobId, status: 'CANCELLED' });
    const { S3_ENDPOINT, S3_ACCESS_KEY, S3_SECRET_KEY } = e2e.stack.infra.env;
    const url = new URL(S3_ENDPOINT);
    const s3 = new MinioClient({ endPoint: url.hostname, port: Number(url.port), useSSL: false, accessKey: S3_ACCESS_KEY, secretKey: S3_SECRET_KEY, region: 'us-east-1' });
    const keys: string[] = [];
    for await (const item of s3.listObjectsV2('video-jobs', 'results/', true)) keys.push(String(item.name));
    expect(keys.filter((key) => key.includes(jobId))).toEqual([]);
    expect(e2e.stack.services.every((s) => s.child.exitCode === null)).toBe(true);
  });

  it('finishes a job whose worker was killed mid-job on another worker', async () => {
    const input = join(e2e.dir, 'crash.mp4');
    await generateVideo(input, { codec: 'h264', seconds: 120, audio: true, size: '160x120' });
    const jobId = await create(await e2e.upload(input, 'video/mp4'));
    const worker = await busyWorker(e2e.stack.services);
    const replacement = e2e.stack.addRenderWorker();

    await killHard(worker);

    const job = await waitForFinalJob<CleanAudioVideoJob>(e2e.api, `/v1/clean-audio-video/${jobId}`, SCHEMA);
    expect(job.status).toBe('COMPLETED');
    expect(replacement.child.exitCode).toBeNull();
    const output = await e2e.download(job.result!.video.url, 'recovered.mp4');
    expect(await videoPacketHashes(output)).toEqual(await videoPacketHashes(input));
  });
});
