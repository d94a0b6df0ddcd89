import { Logger } from '@nestjs/common';
import type { JobProgressUpdateV1, JobReportKind, JobStatus, JobWorkRequestedV1, ReportPayloads } from '@vj/contracts';
import { HandBack, MaxProcessingTimeExceeded, RpcError } from '@vj/messaging';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TransloadError } from '../input/transload-error';
import { MediaError } from '../media';
import { DoubtfulMediaError } from '../media/media-error';
import type { ModerationVerdict } from '../moderation/moderation-policy';
import { JobFailure } from '../errors/job-failure';
import { AttemptReports } from './attempt-reports';
import { CancellationRegistry, WorkAbandoned } from './cancellation-registry';
import { InputPreparation } from './input-preparation';
import { ResultUploader } from './result-uploader';
import type { JobProcessors, JobTypeProcessor, MeasuredInput, ProcessorRun, ProcessorOutput } from './ports';
import { ProcessJobUseCase, type Delivery } from './process-job.use-case';

const JOB: JobWorkRequestedV1<'clean-audio-video'> = {
  version: 1,
  job_id: '6f1d6c1e-0000-4000-8000-000000000001',
  account_id: 'acct-1',
  job_type: 'clean-audio-video',
  input: { kind: 'url', url: 'https://cdn.example.com/in.mp4' },
  options: { strength: 0.874, normalize_loudness: true, target_lufs: -19 },
  requested_at: '2025-01-01T00:00:00.000Z',
};
const FIRST: Delivery = { attempt: 1, isLastDelivery: false };
// JetStream's last delivery: the last attempt whatever the count of failures.
const LAST: Delivery = { attempt: 3, isLastDelivery: true };

type Published = { kind: JobReportKind; report: ReportPayloads[JobReportKind]; msgId: string };

function setup(overrides: {
  status?: JobStatus | null;
  // Answers of successive status checks (the one before starting, the one before uploading).
  statuses?: (JobStatus | null | Error)[];
  statusError?: Error;
  onPut?: (key: string) => void;
  fetchError?: Error;
  verdict?: ModerationVerdict;
  run?: (work: ProcessorRun<'clean-audio-video'>) => Promise<ProcessorOutput>;
  plan?: JobTypeProcessor<'clean-audio-video'>['plan'];
  afterDelivery?: () => void;
  timeLimitMs?: number;
  // Attempts that failed for a reason of ours before this delivery, as the jobs service says.
  failedBefore?: number;
  // The duration the measurer finds in the fetched input, or its failure.
  measured?: number | Error;
  // Billing's answer to the measured duration: resolves when the hold covers it.
  cover?: (seconds: number) => Promise<void>;
  // Thrown by the report sink instead of publishing this kind of report.
  publishError?: (kind: JobReportKind) => Error | undefined;
} = {}) {
  const root = mkdtempSync(join(tmpdir(), 'vj-process-job-'));
  const published: Published[] = [];
  const uploads: { key: string; contentType: string }[] = [];
  const removed: string[] = [];
  const statusAnswers = [...(overrides.statuses ?? [])];
  const registry = new CancellationRegistry();
  const output = (workDir: string): ProcessorOutput => {
    const path = join(workDir, 'out.mp4');
    writeFileSync(path, 'clean');
    return { files: [{ path, fileName: `${JOB.job_id}-clean.mp4`, contentType: 'video/mp4' }], durationSeconds: 12.5 };
  };
  const refusal = ({ seconds }: MeasuredInput) => (seconds > 1800 ? new MediaError('audio_too_long', `lasts ${seconds} s`) : null);
  const processors: JobProcessors = {
    'clean-audio-video': {
      timeLimitMs: overrides.timeLimitMs ?? 5_000,
      maxSeconds: 1800,
      refusal,
      run: overrides.run ?? (async ({ workDir }) => output(workDir)),
      ...(overrides.plan && { plan: overrides.plan }),
      afterDelivery: overrides.afterDelivery,
    },
    'video-background-removal': { timeLimitMs: 5_000, maxSeconds: 60, refusal, run: async () => Promise.reject(new Error('not used')) },
  };
  const covered: number[] = [];
  const settings = { workerId: 'worker-a', maxFailedAttempts: 3, workDir: root, transloadTimeoutMs: 300_000, uploadMarginMs: 600_000, progressIntervalMs: 1000 };
  const progress: JobProgressUpdateV1[] = [];
  const useCase = new ProcessJobUseCase(
    {
      currentJob: async () => {
        const progress = (status: JobStatus | null) => status && { status, failedAttempts: overrides.failedBefore ?? 0 };
        if (statusAnswers.length) {
          const answer = statusAnswers.shift()!;
          if (answer instanceof Error) throw answer;
          return progress(answer);
        }
        if (overrides.statusError) throw overrides.statusError;
        return progress(overrides.status === undefined ? 'PROCESSING' : overrides.status);
      },
    },
    new AttemptReports(
      {
        publish: async <K extends JobReportKind>(kind: K, report: ReportPayloads[K], msgId: string) => {
          const error = overrides.publishError?.(kind);
          if (error) throw error;
          published.push({ kind, report, msgId });
        },
      },
      settings,
    ),
    new InputPreparation(
      {
        fetch: async (_job, destPath) => {
          if (overrides.fetchError) throw overrides.fetchError;
          writeFileSync(destPath, 'input');
          return { path: destPath, size: 5, sha256: 'ab'.repeat(32) };
        },
      },
      { check: async () => overrides.verdict ?? { allowed: true } },
      {
        measure: async () => {
          if (overrides.measured instanceof Error) throw overrides.measured;
          return { seconds: overrides.measured ?? 12.5, videoFrames: 300 };
        },
      },
      {
        cover: async (_job, seconds) => {
          covered.push(seconds);
          await overrides.cover?.(seconds);
        },
      },
    ),
    processors,
    new ResultUploader({
      putFile: async (key, _path, contentType) => {
        uploads.push({ key, contentType });
        overrides.onPut?.(key);
        return { size: 5 };
      },
      remove: async (key) => {
        removed.push(key);
      },
    }),
    settings,
    registry,
    {
      publish: async (update) => {
        progress.push(update);
      },
    },
  );
  const kinds = () => published.map((p) => p.kind);
  const leftovers = () => readdirSync(root);
  return { useCase, published, progress, uploads, removed, registry, kinds, leftovers, covered, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

// Resolves once the processor is running, so a test can cancel mid-run.
function blockingRun() {
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const run = ({ signal }: ProcessorRun<'clean-audio-video'>) =>
    new Promise<ProcessorOutput>((_resolve, reject) => {
      started();
      signal.addEventListener('abort', () => reject(Object.assign(new Error('ffmpeg killed'), { name: 'AbortError' })));
    });
  return { running, run };
}

describe('ProcessJobUseCase', () => {
  beforeAll(() => Logger.overrideLogger(false));
  let env: ReturnType<typeof setup>;
  afterEach(() => env.cleanup());

  it('uploads the output and publishes started then succeeded with the stored result and duration', async () => {
    env = setup();
    await expect(env.useCase.execute(JOB, FIRST)).resolves.toBe('succeeded');
    const key = `results/acct-1/${JOB.job_id}/1/${JOB.job_id}-clean.mp4`;
    expect(env.uploads).toEqual([{ key, contentType: 'video/mp4' }]);
    expect(env.published).toEqual([
      {
        kind: 'started',
        msgId: `${JOB.job_id}:started:1`,
        report: { version: 1, job_id: JOB.job_id, account_id: 'acct-1', job_type: 'clean-audio-video', attempt: 1, worker_id: 'worker-a', deadline_at: expect.any(String) },
      },
      {
        kind: 'succeeded',
        msgId: `${JOB.job_id}:succeeded:1`,
        report: {
          version: 1,
          job_id: JOB.job_id,
          account_id: 'acct-1',
          job_type: 'clean-audio-video',
          result: { job_type: 'clean-audio-video', video: { object_key: key, content_type: 'video/mp4', file_name: `${JOB.job_id}-clean.mp4`, file_size: 5 } },
          media_duration_seconds: 12.5,
        },
      },
    ]);
  });

  it('stores the input and reports the plan of a job its processor cuts into pieces, processing and charging nothing more here', async () => {
    const segments = [
      { index: 0, cut_from: 0, matte_from: 0, from: 0, to: 150, times: null },
      { index: 1, cut_from: 100, matte_from: 120, from: 150, to: 300, times: null },
    ];
    let ran = false;
    env = setup({ plan: async () => ({ frames: 300, fps: 24, segments }), run: async ({ workDir }) => ((ran = true), Promise.reject(new Error(`not run in ${workDir}`))) });
    await expect(env.useCase.execute(JOB, FIRST)).resolves.toBe('planned');
    const inputKey = `results/acct-1/${JOB.job_id}/pieces/input`;
    expect(env.uploads).toEqual([{ key: inputKey, contentType: 'application/octet-stream' }]);
    expect(env.covered).toEqual([12.5]);
    expect(ran).toBe(false);
    expect(env.kinds()).toEqual(['started', 'planned']);
    expect(env.published[1]).toEqual({
      kind: 'planned',
      msgId: `${JOB.job_id}:planned:1`,
      report: { version: 1, job_id: JOB.job_id, account_id: 'acct-1', job_type: 'clean-audio-video', attempt: 1, input_key: inputKey, frames: 300, fps: 24, media_duration_seconds: 12.5, deadline_at: expect.any(String), segments },
    });
    expect(env.leftovers()).toEqual([]);
  });

  it('reports each stage as it begins, the processor\'s own progress within its span, and 1 before the success', async () => {
    env = setup({
      run: async ({ workDir, onProgress }) => {
        onProgress?.(0.5);
        const path = join(workDir, 'out.mp4');
        writeFileSync(path, 'clean');
        return { files: [{ path, fileName: 'out.mp4', contentType: 'video/mp4' }], durationSeconds: 12.5 };
      },
    });
    await expect(env.useCase.execute(JOB, FIRST)).resolves.toBe('succeeded');
    // 0.5 of processing comes within a second of the stage's start: left out, the next stage says more.
    expect(env.progress.map((u) => [u.stage, u.progress])).toEqual([
      ['fetching', 0],
      ['probing', 0.1],
      ['processing', 0.15],
      ['uploading', 0.95],
      ['uploading', 1],
    ]);
    expect(env.progress[0]).toMatchObject({ version: 1, kind: 'progress', job_id: JOB.job_id, account_id: 'acct-1', job_type: 'clean-audio-video', attempt: 1 });
  });

  it('charges for the duration measured in the fetched input, once billing holds its price, not for what the processor says', async () => {
    let ran = false;
    env = setup({
      measured: 61.2,
      run: async ({ workDir }) => {
        ran = true;
        writeFileSync(join(workDir, 'out.mp4'), 'clean');
        return { files: [{ path: join(workDir, 'out.mp4'), fileName: 'x.mp4', contentType: 'video/mp4' }], durationSeconds: 2 };
      },
    });
    expect(await env.useCase.execute(JOB, FIRST)).toBe('succeeded');
    expect(env.covered).toEqual([61.2]);
    expect(ran).toBe(true);
    expect(env.published.at(-1)?.report).toMatchObject({ media_duration_seconds: 61.2 });
  });

  it('fails the job with insufficient_credits before any processing when billing cannot cover the fetched input', async () => {
    let ran = false;
    env = setup({
      measured: 60,
      cover: async () => Promise.reject(new JobFailure('insufficient_credits', 'The account does not have the credits for the video as fetched')),
      run: async () => {
        ran = true;
        throw new Error('must not run');
      },
    });
    expect(await env.useCase.execute(JOB, FIRST)).toBe('failed');
    expect(ran).toBe(false);
    expect(env.uploads).toEqual([]);
    expect(env.kinds()).toEqual(['started', 'failed']);
    expect(env.published.at(-1)?.report).toMatchObject({ error: { code: 'insufficient_credits' } });
  });

  it("fails an input longer than the job type takes with the processor's own error, asking billing for nothing", async () => {
    env = setup({ measured: 1801 });
    expect(await env.useCase.execute(JOB, FIRST)).toBe('failed');
    expect(env.covered).toEqual([]);
    expect(env.published.at(-1)?.report).toMatchObject({ error: { code: 'audio_too_long' } });
  });

  it('waits for billing while it does not answer, spending no attempt, then goes on', async () => {
    let calls = 0;
    env = setup({ cover: async () => (++calls === 1 ? Promise.reject(new RpcError('unavailable', 'billing.extend_hold: no responders')) : undefined) });
    expect(await env.useCase.execute(JOB, FIRST)).toBe('succeeded');
    expect(calls).toBe(2);
    expect(env.kinds()).toEqual(['started', 'succeeded']);
  });

  it('sends the success report again while NATS does not take it, without processing or uploading again', async () => {
    let ran = 0;
    let refusals = 0;
    const outage = Object.assign(new Error('TIMEOUT'), { name: 'NatsError', code: 'TIMEOUT' });
    env = setup({
      publishError: (kind) => (kind === 'succeeded' && ++refusals === 1 ? outage : undefined),
      run: async ({ workDir }) => {
        ran++;
        writeFileSync(join(workDir, 'out.mp4'), 'clean');
        return { files: [{ path: join(workDir, 'out.mp4'), fileName: 'x.mp4', contentType: 'video/mp4' }], durationSeconds: 2 };
      },
    });
    expect(await env.useCase.execute(JOB, FIRST)).toBe('succeeded');
    expect({ ran, refusals, uploads: env.uploads.length }).toEqual({ ran: 1, refusals: 2, uploads: 1 });
    expect(env.kinds()).toEqual(['started', 'succeeded']);
  });

  it('retries a doubtful failure (out of memory, a crash) as ours, and blames the input only on the last attempt', async () => {
    const run = async () => Promise.reject(new DoubtfulMediaError('invalid_file', 'The video could not be decoded within the memory a job gets'));
    env = setup({ run });
    await expect(env.useCase.execute(JOB, FIRST)).rejects.toBeInstanceOf(DoubtfulMediaError);
    expect(env.kinds()).toEqual(['started', 'retrying']);
    env.cleanup();
    env = setup({ run });
    expect(await env.useCase.execute(JOB, LAST)).toBe('failed');
    expect(env.published.at(-1)?.report).toMatchObject({ error: { code: 'invalid_file' } });
  });

  it("calls the processor's afterDelivery once each delivery is done with, after its reports, whatever the outcome", async () => {
    const seen: string[][] = [];
    env = setup({ afterDelivery: () => seen.push(env.kinds()) });
    await env.useCase.execute(JOB, FIRST);
    expect(seen).toEqual([['started', 'succeeded']]);
    env.cleanup();
    seen.length = 0;
    env = setup({ run: async () => Promise.reject(new Error('crash')), afterDelivery: () => seen.push(env.kinds()) });
    await env.useCase.execute(JOB, FIRST).catch(() => undefined);
    expect(seen).toEqual([['started', 'retrying']]);
  });

  it('removes the job temp directory whatever the outcome', async () => {
    env = setup();
    await env.useCase.execute(JOB, FIRST);
    expect(env.leftovers()).toEqual([]);
    env.cleanup();
    env = setup({ run: async () => Promise.reject(new Error('crash')) });
    await env.useCase.execute(JOB, FIRST).catch(() => undefined);
    expect(env.leftovers()).toEqual([]);
  });

  it.each(['COMPLETED', 'FAILED', 'CANCELLED'] as const)('skips a job that is already %s without reporting anything', async (status) => {
    env = setup({ status });
    await expect(env.useCase.execute(JOB, FIRST)).resolves.toBe('skipped');
    expect(env.published).toEqual([]);
  });

  it('publishes nothing for a job cancelled while its status was being checked', async () => {
    env = setup({ status: 'PROCESSING' });
    const registry = env.registry;
    const outcome = env.useCase.execute(JOB, FIRST);
    registry.ended(JOB.job_id, 'CANCELLED');
    await expect(outcome).resolves.toBe('cancelled');
    expect(env.published).toEqual([]);
  });

  it('skips a job the jobs service does not know', async () => {
    env = setup({ status: null });
    await expect(env.useCase.execute(JOB, FIRST)).resolves.toBe('skipped');
    expect(env.published).toEqual([]);
  });

  it('stops a job cancelled mid-run without uploading or reporting success', async () => {
    const blocking = blockingRun();
    env = setup({ run: blocking.run });
    const outcome = env.useCase.execute(JOB, FIRST);
    await blocking.running;
    expect(env.registry.ended(JOB.job_id, 'CANCELLED')).toBe(true);
    await expect(outcome).resolves.toBe('cancelled');
    expect(env.uploads).toEqual([]);
    expect(env.kinds()).toEqual(['started']);
    expect(env.leftovers()).toEqual([]);
  });

  it('uploads nothing when the cancel arrives after processing finished but before the upload', async () => {
    env = setup({
      run: async ({ workDir }) => {
        env.registry.ended(JOB.job_id, 'CANCELLED');
        const path = join(workDir, 'out.mp4');
        writeFileSync(path, 'x');
        return { files: [{ path, fileName: 'f.mp4', contentType: 'video/mp4' }], durationSeconds: 1 };
      },
    });
    await expect(env.useCase.execute(JOB, FIRST)).resolves.toBe('cancelled');
    expect(env.uploads).toEqual([]);
    expect(env.kinds()).toEqual(['started']);
  });

  it('fails the job with transload_failed and its details when the input cannot be fetched', async () => {
    env = setup({ fetchError: new TransloadError('blocked_address', 'x resolves to 10.0.0.1') });
    await expect(env.useCase.execute(JOB, FIRST)).resolves.toBe('failed');
    expect(env.published[1]).toEqual({
      kind: 'failed',
      msgId: `${JOB.job_id}:failed:1`,
      report: expect.objectContaining({
        error: { code: 'transload_failed', message: expect.stringContaining('10.0.0.1'), details: [{ type: 'blocked_address', message: 'x resolves to 10.0.0.1', field: 'video_url' }] },
      }),
    });
  });

  it('fails the job with content_moderation when the policy denies the input, before processing it', async () => {
    const run = jest.fn();
    env = setup({ verdict: { allowed: false, reason: 'known prohibited file' }, run });
    await expect(env.useCase.execute(JOB, FIRST)).resolves.toBe('failed');
    expect(run).not.toHaveBeenCalled();
    expect((env.published[1].report as ReportPayloads['failed']).error.code).toBe('content_moderation');
  });

  it('fails the job with the media error code, on the first attempt, without retrying', async () => {
    env = setup({ run: async () => Promise.reject(new MediaError('invalid_file', 'no audio stream', [{ type: 'no_audio', message: 'the file has no audio stream' }])) });
    await expect(env.useCase.execute(JOB, FIRST)).resolves.toBe('failed');
    expect((env.published[1].report as ReportPayloads['failed']).error).toEqual({
      code: 'invalid_file',
      message: 'no audio stream',
      details: [{ type: 'no_audio', message: 'the file has no audio stream' }],
    });
    expect(env.uploads).toEqual([]);
  });

  it('fails the job with timeout when processing passes the job type time limit', async () => {
    const blocking = blockingRun();
    env = setup({ run: blocking.run, timeLimitMs: 30 });
    await expect(env.useCase.execute(JOB, FIRST)).resolves.toBe('failed');
    expect((env.published[1].report as ReportPayloads['failed']).error.code).toBe('timeout');
  });

  it('counts an unexpected error as a failed attempt with the jobs service and rethrows it, so the message is retried', async () => {
    const crash = new Error('disk full');
    env = setup({ run: async () => Promise.reject(crash), failedBefore: 1 });
    await expect(env.useCase.execute(JOB, FIRST)).rejects.toBe(crash);
    expect(env.kinds()).toEqual(['started', 'retrying']);
    expect(env.published[1]).toMatchObject({ msgId: `${JOB.job_id}:retrying:1`, report: { attempt: 1, failed_attempts: 2, reason: 'disk full' } });
  });

  it('waits while the jobs service does not answer its status check, spending no attempt, then goes on', async () => {
    env = setup({ statuses: [new RpcError('unavailable', 'jobs.get: TIMEOUT'), 'PROCESSING', 'PROCESSING'] });
    expect(await env.useCase.execute(JOB, FIRST)).toBe('succeeded');
    expect(env.kinds()).toEqual(['started', 'succeeded']);
  });

  it('hands the message back after a while, spending no attempt, when a dependency goes away mid-run', async () => {
    env = setup({ run: async () => Promise.reject(new RpcError('unavailable', 'media: no responders')) });
    const error = await env.useCase.execute(JOB, FIRST).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HandBack);
    expect((error as HandBack).delayMs).toBeGreaterThan(0);
    expect(env.kinds()).toEqual(['started']);
  });

  it('fails the job with generation_failed on its last attempt by count, whatever the delivery', async () => {
    env = setup({ run: async () => Promise.reject(new Error('disk full')), failedBefore: 2 });
    await expect(env.useCase.execute(JOB, { attempt: 7, isLastDelivery: false })).resolves.toBe('failed');
    expect(env.published.at(-1)).toMatchObject({ kind: 'failed', report: { error: { code: 'generation_failed', message: 'Processing failed after 3 attempts' } } });
  });

  it('fails the job with generation_failed when an unexpected error happens on the last delivery', async () => {
    env = setup({ run: async () => Promise.reject(new Error('disk full')), failedBefore: 2 });
    await expect(env.useCase.execute(JOB, LAST)).resolves.toBe('failed');
    expect(env.published[1]).toEqual({
      kind: 'failed',
      msgId: `${JOB.job_id}:failed:3`,
      report: expect.objectContaining({ error: { code: 'generation_failed', message: 'Processing failed after 3 attempts', details: null } }),
    });
  });

  it('abandons the job for redelivery when the worker shuts down mid-run', async () => {
    const blocking = blockingRun();
    env = setup({ run: blocking.run });
    const outcome = env.useCase.execute(JOB, FIRST);
    await blocking.running;
    env.registry.abandonAll('shutting down');
    await expect(outcome).rejects.toThrow();
    expect(env.kinds()).toEqual(['started']);
    expect(env.uploads).toEqual([]);
  });

  it('stops when the transport gives up on the delivery', async () => {
    const blocking = blockingRun();
    env = setup({ run: blocking.run });
    const transport = new AbortController();
    const outcome = env.useCase.execute(JOB, { ...FIRST, signal: transport.signal });
    await blocking.running;
    transport.abort(new Error('processing exceeded 60000 ms'));
    await expect(outcome).rejects.toThrow();
    expect(env.uploads).toEqual([]);
  });

  it("announces in the started report the attempt's own deadline: now + fetch limit + processing limit + upload margin", async () => {
    env = setup({ timeLimitMs: 3_600_000 });
    const before = Date.now();
    await env.useCase.execute(JOB, FIRST);
    const after = Date.now();
    const deadline = Date.parse((env.published[0].report as ReportPayloads['started']).deadline_at!);
    const limits = 300_000 + 3_600_000 + 600_000;
    expect(deadline).toBeGreaterThanOrEqual(before + limits);
    expect(deadline).toBeLessThanOrEqual(after + limits);
  });

  it('stops a job that became FAILED elsewhere mid-run (its failed event), uploading and reporting nothing', async () => {
    const blocking = blockingRun();
    env = setup({ run: blocking.run });
    const outcome = env.useCase.execute(JOB, FIRST);
    await blocking.running;
    expect(env.registry.ended(JOB.job_id, 'FAILED')).toBe(true);
    await expect(outcome).resolves.toBe('stopped');
    expect(env.uploads).toEqual([]);
    expect(env.kinds()).toEqual(['started']);
    expect(env.leftovers()).toEqual([]);
  });

  it('checks the status again before uploading and uploads nothing when the job is no longer PROCESSING', async () => {
    env = setup({ statuses: ['PROCESSING', 'FAILED'] });
    await expect(env.useCase.execute(JOB, FIRST)).resolves.toBe('stopped');
    expect(env.uploads).toEqual([]);
    expect(env.kinds()).toEqual(['started']);
    expect(env.leftovers()).toEqual([]);
  });

  it('uploads anyway when the status check before the upload cannot be answered', async () => {
    env = setup({ statuses: ['PROCESSING', new Error('jobs.get: timeout')] });
    await expect(env.useCase.execute(JOB, FIRST)).resolves.toBe('succeeded');
    expect(env.kinds()).toEqual(['started', 'succeeded']);
  });

  it('rethrows a shutdown abort on the last attempt too, so the message is redelivered, reporting no failure', async () => {
    const blocking = blockingRun();
    env = setup({ run: blocking.run });
    const outcome = env.useCase.execute(JOB, LAST);
    await blocking.running;
    env.registry.abandonAll('SIGTERM');
    await expect(outcome).rejects.toBeInstanceOf(WorkAbandoned);
    expect(env.kinds()).toEqual(['started']);
  });

  it.each([
    ['a first', FIRST],
    ['the last', LAST],
  ])('fails the job with timeout when the delivery passes the consumer maxProcessingMs on %s attempt', async (_name, delivery) => {
    const blocking = blockingRun();
    env = setup({ run: blocking.run });
    const transport = new AbortController();
    const outcome = env.useCase.execute(JOB, { ...delivery, signal: transport.signal });
    await blocking.running;
    transport.abort(new MaxProcessingTimeExceeded(60_000));
    await expect(outcome).resolves.toBe('failed');
    expect(env.kinds()).toEqual(['started', 'failed']);
    expect((env.published[1].report as ReportPayloads['failed']).error.code).toBe('timeout');
  });

  it('removes the stored result and reports no success when the cancel arrives during its upload', async () => {
    env = setup({ onPut: () => env.registry.ended(JOB.job_id, 'CANCELLED') });
    await expect(env.useCase.execute(JOB, FIRST)).resolves.toBe('cancelled');
    const key = `results/acct-1/${JOB.job_id}/1/${JOB.job_id}-clean.mp4`;
    expect(env.uploads.map((u) => u.key)).toEqual([key]);
    expect(env.removed).toEqual([key]);
    expect(env.kinds()).toEqual(['started']);
  });

  it('stops uploading the other files and removes those already stored when the cancel arrives mid-upload', async () => {
    env = setup({
      run: async ({ workDir }) => {
        const files = ['a.png', 'b.png', 'c.png'].map((fileName) => {
          const path = join(workDir, fileName);
          writeFileSync(path, 'x');
          return { path, fileName, contentType: 'image/png' };
        });
        return { files, durationSeconds: 1 };
      },
      onPut: (key) => key.endsWith('b.png') && env.registry.ended(JOB.job_id, 'CANCELLED'),
    });
    await expect(env.useCase.execute(JOB, FIRST)).resolves.toBe('cancelled');
    const keys = ['a.png', 'b.png'].map((name) => `results/acct-1/${JOB.job_id}/1/${name}`);
    expect(env.uploads.map((u) => u.key)).toEqual(keys);
    expect(env.removed).toEqual(keys);
    expect(env.kinds()).toEqual(['started']);
  });

  it('keeps the temp directory until a cancelled processor has really stopped', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let stopped!: (dirStillThere: boolean) => void;
    const dirAtStop = new Promise<boolean>((resolve) => (stopped = resolve));
    env = setup({
      run: ({ signal, workDir }) =>
        new Promise<ProcessorOutput>((_resolve, reject) => {
          started();
          // ffmpeg takes a moment to exit and still writes into the directory meanwhile.
          signal.addEventListener('abort', () =>
            setTimeout(() => {
              stopped(existsSync(workDir));
              reject(Object.assign(new Error('ffmpeg killed'), { name: 'AbortError' }));
            }, 50),
          );
        }),
    });
    const outcome = env.useCase.execute(JOB, FIRST);
    await running;
    env.registry.ended(JOB.job_id, 'CANCELLED');
    await expect(outcome).resolves.toBe('cancelled');
    expect(await dirAtStop).toBe(true);
    expect(env.leftovers()).toEqual([]);
  });
});
