import { join } from 'node:path';
import type { WebhookEndpointWithSecret } from '@vj/contracts';
import { waitFor } from '@vj/local-stack';
import { openSse } from '../../apps/gateway/test/sse-client';
import { generateVideo } from '../../test/support/media-tools';
import { startWebhookReceiver } from '../../test/support/webhook-receiver';
import { runBench, withBenchStack } from '../support/bench-stack';
import { percentile } from '../support/stats';

// Delivery latency of job.completed webhooks: from the job's completion (the event's timestamp) to the
// receiver's 200, against the same job's final SSE event measured in the same run (the push path the
// gateway already has). JOBS (default 30) short clean-audio jobs, JOB_CONCURRENCY (default 3) at a time.
const JOBS = Number(process.env.JOBS ?? 30);
const CONCURRENCY = Number(process.env.JOB_CONCURRENCY ?? 3);

runBench(() =>
  withBenchStack({ WEBHOOK_ALLOW_HOSTS: '127.0.0.1' }, async ({ stack, dir, headers, upload }) => {
    const receiver = await startWebhookReceiver();
    try {
      const endpoint = (await (
        await fetch(`${stack.apiUrl}/v1/webhook-endpoints`, { method: 'POST', headers, body: JSON.stringify({ url: receiver.url('/bench'), events: ['job.completed'] }) })
      ).json()) as WebhookEndpointWithSecret;
      if (!endpoint.secret) throw new Error(`endpoint not created: ${JSON.stringify(endpoint)}`);
      const clip = join(dir, 'clip.mp4');
      await generateVideo(clip, { codec: 'h264', seconds: 1, audio: true, size: '160x120' });
      const videoUrl = await upload(clip);

      const webhookMs: number[] = [];
      const sseMs: number[] = [];
      const runOne = async () => {
        const created = (await (await fetch(`${stack.apiUrl}/v1/clean-audio-video`, { method: 'POST', headers, body: JSON.stringify({ video_url: videoUrl }) })).json()) as { job_id: string };
        let sseFinalAt = 0;
        const stream = await openSse(`${stack.apiUrl}/v1/clean-audio-video/${created.job_id}/events`, { authorization: headers.authorization! }, 120_000, (event) => {
          if (event.event === 'job.completed') sseFinalAt = Date.now();
        });
        await stream.events;
        const delivered = () => receiver.received('/bench').find((item) => (JSON.parse(item.body) as { data: { job: { job_id: string } } }).data.job.job_id === created.job_id);
        await waitFor('the webhook', async () => delivered() !== undefined, 60_000, 5);
        const hook = delivered()!;
        const completedAt = Date.parse((JSON.parse(hook.body) as { timestamp: string }).timestamp);
        webhookMs.push(hook.receivedAt - completedAt);
        sseMs.push(sseFinalAt - completedAt);
      };
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next++ < JOBS) await runOne();
        }),
      );
      const row = (name: string, values: number[]) => `${name.padEnd(34)} p50 ${percentile(values, 50).toFixed(0).padStart(5)} ms   p99 ${percentile(values, 99).toFixed(0).padStart(5)} ms`;
      console.log(`${JOBS} clean-audio jobs, ${CONCURRENCY} at a time; latency from job completion (event timestamp)`);
      console.log(row('webhook, receiver got job.completed', webhookMs));
      console.log(row('baseline: SSE job.completed event', sseMs));
      console.log(`ratio webhook/SSE: p50 ${(percentile(webhookMs, 50) / Math.max(1, percentile(sseMs, 50))).toFixed(2)}, p99 ${(percentile(webhookMs, 99) / Math.max(1, percentile(sseMs, 99))).toFixed(2)}`);
    } finally {
      await receiver.close();
    }
  }),
);
