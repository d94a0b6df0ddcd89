// First: the test-only type is registered in this process before the stack's modules load from it.
import { thirdJobTypeEnv } from '../support/third-job-type/register';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { JobObject, JobType } from '@vj/contracts';
import type { UsageReport } from '@vj/sdk';
import { useE2eStack } from '../support/e2e-stack';
import { waitForSettledJob } from '../support/job-polling';
import { generateVideo, videoPacketHashes } from '../support/media-tools';

// A job type is one registration (decision 0103): a third type that exists only in the tests
// (test/support/third-job-type), registered in every service before it boots, is routed, validated,
// quoted, dispatched, processed, charged and read back by the real stack, beside the two real types.
const TYPE = 'copy-video' as JobType;
const SCHEMA = 'CopyVideoJob' as never;

type JobList = { data: { type: string; job: JobObject }[] };

describe('a job type registered only in the tests, through all four services', () => {
  const e2e = useE2eStack('e2e-third-job-type', thirdJobTypeEnv());

  it('is created, priced, processed and read back like the real ones', async () => {
    const input = join(e2e.dir, 'three.mp4');
    await generateVideo(input, { codec: 'h264', seconds: 3, audio: true });
    const videoUrl = await e2e.upload(input, 'video/mp4');

    // 3 s at 0.5 credits a second, faststart's multiplier 1.2: 1.8, rounded up.
    const quoted = await e2e.api.request('POST', `/v1/estimates?type=${TYPE}`, 'Estimate', { video_url: videoUrl });
    expect(quoted).toMatchObject({ status: 200, body: { credits_estimated: 2, basis: 'probed_duration' } });
    const refused = await e2e.api.request('POST', `/v1/${TYPE}`, 'RequestError', { video_url: videoUrl, faststart: 'yes' });
    expect(refused.status).toBe(422);

    const created = await e2e.api.request<JobObject>('POST', `/v1/${TYPE}`, SCHEMA, { video_url: videoUrl });
    expect(created.status).toBe(202);
    expect(created.body).toEqual({ job_id: expect.any(String), status: 'PROCESSING', credits_estimated: 2 });
    const job = await waitForSettledJob<JobObject>(e2e.api, `/v1/${TYPE}/${created.body.job_id}`, SCHEMA, 120_000);
    expect(job).toMatchObject({ status: 'COMPLETED', credits_charged: 2 });

    const file = (job.result as { video: { url: string; file_size: number; content_type: string } }).video;
    expect(file.content_type).toBe('video/mp4');
    const output = await e2e.download(file.url, 'copy.mp4');
    expect(statSync(output).size).toBe(file.file_size);
    expect(await videoPacketHashes(output)).toEqual(await videoPacketHashes(input));

    const listed = (await e2e.api.request<JobList>('GET', `/v1/jobs?type=${TYPE}`, 'JobList')).body.data;
    expect(listed.map((item) => [item.type, item.job.job_id])).toEqual([[TYPE, job.job_id]]);
    const usage = (await e2e.api.request<UsageReport>('GET', '/v1/billing/usage?group_by=job_type', 'UsageReport')).body;
    expect(usage.rows).toEqual([expect.objectContaining({ job_type: TYPE, jobs: 1, billed_seconds: 3, credits: 2 })]);
    // The real types are served beside it.
    expect((await e2e.api.request('GET', `/v1/clean-audio-video/${job.job_id}`, 'RequestError')).status).toBe(404);
  });
});
