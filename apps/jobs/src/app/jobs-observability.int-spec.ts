import { Logger } from '@nestjs/common';
import type { RunningNatsService } from '@vj/service-boot';
import { CLEAN_AUDIO_DEFAULTS, subjects, type CreateJobRequestV1, type StoredResultV1 } from '@vj/contracts';
import { createDatabase, startNatsServer, startS3Server, waitFor, type LocalNatsServer, type LocalS3Server } from '@vj/local-stack';
import { JetStreamPublisher, JobsRpcClient } from '@vj/messaging';
import { createLogger, NestPinoLogger, runWithLogContext, startOpsServer, type OpsServer } from '@vj/observability';
import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { connect, type NatsConnection } from 'nats';
import { jobsEnv } from '../jobs.env';
import { createJobsApp } from './create-jobs-app';

const ACCOUNT = randomUUID();
const result: StoredResultV1 = { job_type: 'clean-audio-video', video: { object_key: 'results/x/out.mp4', content_type: 'video/mp4', file_name: 'out.mp4', file_size: 10 } };
const cleanAudio: CreateJobRequestV1 = { version: 1, account_id: ACCOUNT, job_type: 'clean-audio-video', input: { kind: 'url', url: 'https://example.com/a.mp4' }, options: CLEAN_AUDIO_DEFAULTS };

describe('jobs service observability: /metrics, /livez, /readyz and log context', () => {
  let nats: LocalNatsServer;
  let s3: LocalS3Server;
  let ops: OpsServer;
  let jobs: RunningNatsService;
  let nc: NatsConnection;
  let rpc: JobsRpcClient;
  let publisher: JetStreamPublisher;
  const lines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    const destination = new PassThrough();
    destination.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>)));
    Logger.overrideLogger(new NestPinoLogger(createLogger('jobs', { level: 'log', format: 'json', destination })));
    [nats, s3] = await Promise.all([startNatsServer(), startS3Server()]);
    const config = jobsEnv.parse({
      NATS_URL: nats.url,
      DATABASE_URL: await createDatabase(process.env.TEST_DATABASE_ADMIN_URL!, 'jobs_observability'),
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY: s3.accessKey,
      S3_SECRET_KEY: s3.secretKey,
      LOG_LEVEL: 'log',
      OUTBOX_POLL_MS: '100',
    });
    ops = await startOpsServer({ port: 0 });
    jobs = await createJobsApp(config, ops);
    nc = await connect({ servers: nats.url });
    rpc = new JobsRpcClient(nc);
    publisher = new JetStreamPublisher(nc);
  });

  afterAll(async () => {
    await jobs?.stop();
    await ops?.close();
    await nc?.close();
    await nats?.stop();
    await s3?.stop();
  });

  const get = async (path: string) => {
    const response = await fetch(`http://127.0.0.1:${ops.port}${path}`);
    return { status: response.status, text: await response.text() };
  };
  const getJob = (jobId: string) => rpc.call('get', { version: 1, account_id: ACCOUNT, job_id: jobId });

  it('answers /livez, and /readyz once its database and NATS answer', async () => {
    expect((await get('/livez')).status).toBe(200);
    const ready = await get('/readyz');
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.text)).toEqual({ status: 'ok', checks: { started: 'up', nats: 'up', database: 'up' } });
  });

  it('counts jobs created, completed and failed by type and code, and reports outbox lag, queue depth, consumer lag and dead letters', async () => {
    const { job: completing } = await runWithLogContext({ request_id: 'req-complete' }, () => rpc.call('create', cleanAudio));
    const { job: failing } = await rpc.call('create', cleanAudio);
    for (const job of [completing, failing]) {
      const base = { version: 1 as const, job_id: job.job_id, account_id: ACCOUNT, job_type: job.job_type };
      await publisher.publish(subjects.report('started'), { ...base, attempt: 1, worker_id: 'w1' }, { msgId: `${job.job_id}.started` });
      await waitFor('started', async () => (await getJob(job.job_id)).status === 'PROCESSING');
    }
    await runWithLogContext({ request_id: 'req-report' }, () =>
      publisher.publish(
        subjects.report('succeeded'),
        { version: 1, job_id: completing.job_id, account_id: ACCOUNT, job_type: completing.job_type, result, media_duration_seconds: 3 },
        { msgId: `${completing.job_id}.succeeded` },
      ),
    );
    await publisher.publish(
      subjects.report('failed'),
      { version: 1, job_id: failing.job_id, account_id: ACCOUNT, job_type: failing.job_type, error: { code: 'invalid_file', message: 'no video stream', details: null } },
      { msgId: `${failing.job_id}.failed` },
    );
    await waitFor('both final', async () => (await getJob(completing.job_id)).status === 'COMPLETED' && (await getJob(failing.job_id)).status === 'FAILED');

    let text = '';
    await waitFor('events counted', async () => {
      text = (await get('/metrics')).text;
      return text.includes('jobs_completed_total{type="clean-audio-video"} 1') && text.includes('jobs_failed_total{type="clean-audio-video",code="invalid_file"} 1');
    });
    expect(text).toContain('jobs_created_total{type="clean-audio-video"} 2');
    expect(text).toMatch(/outbox_oldest_unpublished_age_seconds\{schema="jobs"\} [\d.]+/);
    expect(text).toMatch(/outbox_unpublished_messages\{schema="jobs"\} \d+/);
    expect(text).toMatch(/outbox_parked_messages\{schema="jobs"\} 0/);
    expect(text).toMatch(/jetstream_stream_messages\{stream="VJ_WORK"\} \d+/);
    expect(text).toMatch(/jetstream_stream_bytes\{stream="VJ_DEAD_LETTERS"\} \d+/);
    expect(text).toMatch(/jetstream_consumer_pending_messages\{stream="VJ_JOB_REPORTS",consumer="jobs-reports"\} \d+/);
    expect(text).toMatch(/jetstream_consumer_pending_messages\{stream="VJ_BILLING_EVENTS",consumer="jobs-billing-events"\} \d+/);
    expect(text).toContain('dead_letters{consumer="render-worker"} 0');
    expect(text).toMatch(/jetstream_handler_duration_seconds_count\{consumer="jobs-reports",subject="vj.reports.job.v1.succeeded",outcome="ok"\} 1/);
    expect(text).toMatch(/rpc_server_duration_seconds_count\{service="jobs",method="create",outcome="ok"\} 2/);
  });

  it('writes the request, job and account of each message it handles in its log lines', async () => {
    const handled = lines.filter((line) => line.context === 'JetStreamConsumers' && String(line.msg).includes('handled vj.reports.job.v1.succeeded'));
    expect(handled).toEqual([expect.objectContaining({ level: 'info', service: 'jobs', request_id: 'req-report', job_id: expect.any(String), account_id: ACCOUNT })]);
  });
});
