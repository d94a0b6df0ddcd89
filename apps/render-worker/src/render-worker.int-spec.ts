import { CONSUMERS, STREAMS, subjects, type ExtendHoldRequestV1, type JobRecordV1, type JobStatus, type JobWorkRequestedV1, type ReportPayloads } from '@vj/contracts';
import { startNatsServer, startS3Server, waitFor, type LocalNatsServer, type LocalS3Server } from '@vj/local-stack';
import { decodeJson, JetStreamPublisher, MediaRpcClient, pingHealth, RpcError, serveBillingRpc, serveJobsRpc, type RpcService } from '@vj/messaging';
import { ObjectStorage } from '@vj/storage';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type NatsConnection } from 'nats';
import { bootRenderWorker, type RunningWorker } from './boot';
import { startLocalHttpServer, type LocalHttpServer } from './input/testing/local-http-server';
import { renderWorkerEnv } from './render-worker.env';

type Report = { subject: string; payload: ReportPayloads[keyof ReportPayloads] & { job_id: string } };

describe('render worker against nats-server and S3', () => {
  let nats: LocalNatsServer;
  let s3: LocalS3Server;
  let nc: NatsConnection;
  let worker: RunningWorker;
  let rpc: RpcService;
  let billing: RpcService;
  let coverableSeconds = 3600;
  const holds: ExtendHoldRequestV1[] = [];
  let storage: ObjectStorage;
  let stallServer: LocalHttpServer;
  let stallUrl: string;
  let workDir: string;
  const statuses = new Map<string, JobStatus>();
  const reports: Report[] = [];

  beforeAll(async () => {
    [nats, s3] = await Promise.all([startNatsServer(), startS3Server()]);
    nc = await connect({ servers: nats.url });
    rpc = serveJobsRpc(nc, {
      get: async (request) => {
        const status = statuses.get(request.job_id);
        if (!status) throw new RpcError('not_found', 'no such job');
        return { job_id: request.job_id, status } as JobRecordV1;
      },
      create: async () => Promise.reject(new Error('unused')),
      replay: async () => Promise.reject(new Error('unused')),
      list: async () => Promise.reject(new Error('unused')),
      cancel: async () => Promise.reject(new Error('unused')),
      cancel_account: async () => Promise.reject(new Error('unused')),
      delete: async () => Promise.reject(new Error('unused')),
    });
    // Billing's extend_hold: covers up to `coverableSeconds`, recording what each job asked for.
    billing = serveBillingRpc(nc, {
      extend_hold: async (request) => {
        holds.push(request);
        const covered = request.duration_seconds <= coverableSeconds;
        return { covered, credits_required: Math.ceil(request.duration_seconds), credits_held: covered ? Math.ceil(request.duration_seconds) : 1, credits_available: 1 };
      },
      price_list: async () => Promise.reject(new Error('unused')),
      balance: async () => Promise.reject(new Error('unused')),
      usage: async () => Promise.reject(new Error('unused')),
      ledger: async () => Promise.reject(new Error('unused')),
      grant: async () => Promise.reject(new Error('unused')),
    });
    nc.subscribe(subjects.reportAll(), { callback: (_e, msg) => reports.push({ subject: msg.subject, payload: decodeJson(msg.data) }) });
    // Sends headers then nothing: a transload that is still running when the job is cancelled.
    stallServer = await startLocalHttpServer((_req, res) => res.writeHead(200, { 'content-length': 1_000_000 }).write('x'));
    stallUrl = `${stallServer.base}/video.mp4`;
    workDir = mkdtempSync(join(tmpdir(), 'vj-worker-int-'));
    const config = renderWorkerEnv.parse({
      NATS_URL: nats.url,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY: s3.accessKey,
      S3_SECRET_KEY: s3.secretKey,
      S3_BUCKET: 'worker-int',
      WORK_DIR: workDir,
      TRANSLOAD_ALLOW_HOSTS: '127.0.0.1',
      WORKER_CONCURRENCY: '2',
      LOG_LEVEL: 'error',
      MATTING_MODEL_CACHE_DIR: join(workDir, 'models'),
    });
    storage = new ObjectStorage({ endpoint: s3.endpoint, accessKey: s3.accessKey, secretKey: s3.secretKey, bucket: 'worker-int', region: 'us-east-1' });
    worker = await bootRenderWorker(config);
    writeFileSync(join(workDir, 'tiny'), 'tiny');
    await storage.putFile('uploads/acct-1/tiny', join(workDir, 'tiny'), 'video/mp4');
  });

  afterAll(async () => {
    await worker?.stop('test over');
    await rpc?.close();
    await billing?.close();
    await stallServer?.close();
    await nc?.close();
    await Promise.all([nats?.stop(), s3?.stop()]);
    rmSync(workDir, { recursive: true, force: true });
  });

  function publishWork(job: Omit<JobWorkRequestedV1, 'version' | 'account_id' | 'requested_at'>, status: JobStatus = 'PROCESSING') {
    statuses.set(job.job_id, status);
    const work = { version: 1, account_id: 'acct-1', requested_at: new Date().toISOString(), ...job };
    return new JetStreamPublisher(nc).publish(subjects.work(job.job_type), work, { msgId: `work-${job.job_id}` });
  }
  const reportsOf = (jobId: string) => reports.filter((r) => r.payload.job_id === jobId);
  const kindsOf = (jobId: string) => reportsOf(jobId).map((r) => r.subject.split('.').pop());
  const workLeft = async () => (await (await nc.jetstreamManager()).consumers.info(STREAMS.work, CONSUMERS.renderWorker)).num_pending;
  const cleanAudio = { job_type: 'clean-audio-video' as const, options: { strength: 0.874, normalize_loudness: true, target_lufs: -19 } };

  it('answers the health probe as ready', async () => {
    expect(await pingHealth(nc, 'render-worker')).toEqual(expect.objectContaining({ service: 'render-worker', ready: true }));
  });

  it("answers the duration probe for a quote: an upload's duration, null for one that is not a video", async () => {
    const source = join(workDir, 'probe.mp4');
    execFileSync('ffmpeg', ['-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10:duration=1.5', '-c:v', 'libx264', '-y', source]);
    await storage.putFile('uploads/acct-1/probe', source, 'video/mp4');
    const media = new MediaRpcClient(nc, 10_000);
    const probe = (upload: string) => media.call('probe', { version: 1, input: { kind: 'upload', upload_id: upload, object_key: `uploads/acct-1/${upload}` } });
    expect((await probe('probe')).duration_seconds).toBeCloseTo(1.5, 1);
    expect(await probe('tiny')).toEqual({ duration_seconds: null });
  });

  it('fails a background-removal job whose upload is not a video with invalid_file and acks its work', async () => {
    const jobId = randomUUID();
    await publishWork({ job_id: jobId, job_type: 'video-background-removal', input: { kind: 'upload', upload_id: 'tiny', object_key: 'uploads/acct-1/tiny' }, options: { output_codec: 'vp9', refine_foreground_edges: true, subject_is_person: true } });
    await waitFor('failed report', async () => kindsOf(jobId).includes('failed'));
    expect(kindsOf(jobId)).toEqual(['started', 'failed']);
    expect(reportsOf(jobId)[1].payload).toEqual(expect.objectContaining({ error: expect.objectContaining({ code: 'invalid_file' }) }));
    await waitFor('work acked', async () => (await workLeft()) === 0);
  });

  it('fails a job whose video_url points into a private network with transload_failed', async () => {
    const jobId = randomUUID();
    await publishWork({ job_id: jobId, ...cleanAudio, input: { kind: 'url', url: 'http://10.1.2.3/video.mp4' } });
    await waitFor('failed report', async () => kindsOf(jobId).includes('failed'));
    expect(reportsOf(jobId)[1].payload).toEqual(expect.objectContaining({ error: expect.objectContaining({ code: 'transload_failed' }) }));
  });

  it('skips a job that is already cancelled without reporting anything', async () => {
    const jobId = randomUUID();
    await publishWork({ job_id: jobId, ...cleanAudio, input: { kind: 'url', url: stallUrl } }, 'CANCELLED');
    await waitFor('work acked', async () => (await workLeft()) === 0 && statuses.has(jobId));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(reportsOf(jobId)).toEqual([]);
  });

  it('stops a running job when its cancel event arrives, reporting nothing after started', async () => {
    const jobId = randomUUID();
    await publishWork({ job_id: jobId, ...cleanAudio, input: { kind: 'url', url: stallUrl } });
    await waitFor('started', async () => kindsOf(jobId).includes('started'));
    nc.publish(subjects.jobEvent('cancelled'), JSON.stringify({ version: 1, job_id: jobId, account_id: 'acct-1', job_type: 'clean-audio-video', event_id: randomUUID(), occurred_at: new Date().toISOString() }));
    await waitFor('work acked', async () => (await workLeft()) === 0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(kindsOf(jobId)).toEqual(['started']);
  });

  it('terminates a malformed work message instead of retrying it', async () => {
    await new JetStreamPublisher(nc).publish(subjects.work('clean-audio-video'), { job_id: 42 }, { msgId: 'malformed' });
    const jsm = await nc.jetstreamManager();
    await waitFor('settled', async () => {
      const info = await jsm.consumers.info(STREAMS.work, CONSUMERS.renderWorker);
      return info.num_pending === 0 && info.num_ack_pending === 0;
    });
    expect((await jsm.consumers.info(STREAMS.work, CONSUMERS.renderWorker)).num_redelivered).toBe(0);
  });

  it('fails the job a work message names when it cannot be used (an input kind of a newer gateway), without a retry', async () => {
    const jobId = randomUUID();
    await publishWork({ job_id: jobId, ...cleanAudio, input: { kind: 'from-a-newer-gateway' } as unknown as JobWorkRequestedV1['input'] });
    await waitFor('failed report', async () => kindsOf(jobId).includes('failed'));
    expect(kindsOf(jobId)).toEqual(['failed']);
    expect((reportsOf(jobId)[0].payload as ReportPayloads['failed']).error).toMatchObject({ code: 'generation_failed' });
    expect((await (await nc.jetstreamManager()).consumers.info(STREAMS.work, CONSUMERS.renderWorker)).num_redelivered).toBe(0);
  });

  it('cleans an uploaded video, stores the result under results/ and reports success', async () => {
    const source = join(workDir, 'source.mp4');
    execFileSync('ffmpeg', ['-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10:duration=2', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', '-c:v', 'libx264', '-c:a', 'aac', '-shortest', '-y', source]);
    await storage.putFile('uploads/acct-1/up-1', source, 'video/mp4');
    const jobId = randomUUID();
    await publishWork({ job_id: jobId, ...cleanAudio, input: { kind: 'upload', upload_id: 'up-1', object_key: 'uploads/acct-1/up-1' } });
    await waitFor('outcome', async () => kindsOf(jobId).length === 2, 50_000);
    const outcome = reportsOf(jobId)[1].payload as ReportPayloads['succeeded'];
    expect(kindsOf(jobId)).toEqual(['started', 'succeeded']);
    const key = `results/acct-1/${jobId}/1/${jobId}-clean.mp4`;
    const stemsKey = `results/acct-1/${jobId}/1/${jobId}-stems.flac`;
    expect(outcome.result).toEqual({
      job_type: 'clean-audio-video',
      video: { object_key: key, content_type: 'video/mp4', file_name: `${jobId}-clean.mp4`, file_size: expect.any(Number) },
      // Kept for exports (decision 0093), beside the result.
      export_source: {
        kind: 'stems',
        file: { object_key: stemsKey, content_type: 'audio/flac', file_name: `${jobId}-stems.flac`, file_size: expect.any(Number) },
        low_band_energy: { input: expect.any(Number), removed: expect.any(Number) },
        input_lufs: expect.any(Number),
        input_true_peak_dbtp: expect.any(Number),
        input_noise_floor_dbfs: expect.any(Number),
        duration_seconds: outcome.media_duration_seconds,
      },
      // What the job measured of its own work (decision 0096): its quality report.
      quality: {
        kind: 'clean-audio',
        input: { integrated_lufs: expect.any(Number), true_peak_dbtp: expect.any(Number), noise_floor_dbfs: expect.any(Number) },
        output: { integrated_lufs: expect.any(Number), true_peak_dbtp: expect.any(Number), noise_floor_dbfs: expect.any(Number) },
        // A test tone tells no offset (decision 0098).
        audio_offset_ms: null,
        picture: { source_sha256: expect.stringMatching(/^[0-9a-f]{64}$/), output_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
      },
    });
    const { quality } = outcome.result as { quality: { input: unknown; picture: { source_sha256: string; output_sha256: string } } };
    expect(quality.picture.output_sha256).toBe(quality.picture.source_sha256);
    expect((outcome.result as { export_source: { input_lufs: number } }).export_source.input_lufs).toBe((quality.input as { integrated_lufs: number }).integrated_lufs);
    expect(await storage.stat(stemsKey)).toEqual(expect.objectContaining({ contentType: 'audio/flac' }));
    expect(outcome.media_duration_seconds).toBeCloseTo(2, 0);
    expect(await storage.stat(key)).toEqual(expect.objectContaining({ size: (outcome.result as { video: { file_size: number } }).video.file_size }));
    // Paid for before processing: billing was asked to hold the price of the duration measured in the fetched file.
    expect(holds.filter((hold) => hold.job_id === jobId)).toEqual([
      { version: 1, job_id: jobId, account_id: 'acct-1', job_type: 'clean-audio-video', duration_seconds: outcome.media_duration_seconds },
    ]);
  }, 60_000);

  it('fails a job with insufficient_credits, uploading nothing, when billing cannot cover the input as fetched', async () => {
    const source = join(workDir, 'long.mp4');
    execFileSync('ffmpeg', ['-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10:duration=6', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=6', '-c:v', 'libx264', '-c:a', 'aac', '-shortest', '-y', source]);
    await storage.putFile('uploads/acct-1/up-long', source, 'video/mp4');
    coverableSeconds = 3;
    try {
      const jobId = randomUUID();
      await publishWork({ job_id: jobId, ...cleanAudio, input: { kind: 'upload', upload_id: 'up-long', object_key: 'uploads/acct-1/up-long' } });
      await waitFor('outcome', async () => kindsOf(jobId).length === 2, 50_000);
      expect(kindsOf(jobId)).toEqual(['started', 'failed']);
      expect((reportsOf(jobId)[1].payload as ReportPayloads['failed']).error).toMatchObject({ code: 'insufficient_credits' });
      expect(holds.find((hold) => hold.job_id === jobId)?.duration_seconds).toBeCloseTo(6, 0);
      expect(await storage.stat(`results/acct-1/${jobId}/1/${jobId}-clean.mp4`)).toBeNull();
    } finally {
      coverableSeconds = 3600;
    }
  }, 60_000);
});
