/** @jest-environment ./test/onnx-test-environment.cjs */
import { Logger } from '@nestjs/common';
import {
  BACKGROUND_REMOVAL_DEFAULTS,
  type JobReportKind,
  type JobStatus,
  type PieceInputV1,
  type PlatePassWorkV1,
  type ReportPayloads,
  type SegmentDoneReportV1,
  type SegmentJoinWorkV1,
  type SegmentWorkV1,
} from '@vj/contracts';
import { startS3Server, type LocalS3Server } from '@vj/local-stack';
import { ObjectStorage } from '@vj/storage';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MattingModelRegistry } from '../matting/model-registry';
import { OnnxSegmenter } from '../matting/onnx-segmenter';
import { preparePersonModels } from '../matting/person-model';
import { streamsOf, videoFrameTimes } from '../matting/testing/matte-tools';
import { ProcessRunner, probeMedia } from '../media';
import { ffmpeg, FFPROBE_PATH } from '../media/testing/media-tools';
import { AttemptReports } from '../processing/attempt-reports';
import { CancellationRegistry } from '../processing/cancellation-registry';
import { ResultUploader } from '../processing/result-uploader';
import { BackgroundRemovalPieces } from './background-removal-pieces';
import { pieceKeys } from './piece-files';
import { RunPieceUseCase } from './run-piece.use-case';

// A long background removal's pieces (decision 0101) run one after another as the jobs service would
// send them, on the real bucket, ffmpeg and person model: the plan, the pass storing each plate, the
// segments from their plates, and the join storing the job's files and deleting the pieces'.

const FPS = 25;
const SECONDS = 6;
const ACCOUNT = 'acct-pieces';

let s3: LocalS3Server;
let storage: ObjectStorage;
let dir: string;
let segmenters: OnnxSegmenter[];
let input: string;
let pieces: BackgroundRemovalPieces;

beforeAll(async () => {
  Logger.overrideLogger(false);
  s3 = await startS3Server();
  storage = new ObjectStorage({ endpoint: s3.endpoint, accessKey: s3.accessKey, secretKey: s3.secretKey, bucket: 'pieces', region: 'us-east-1' });
  await storage.ensureBucket();
  dir = await mkdtemp(join(tmpdir(), 'vj-pieces-'));
  const specs = await preparePersonModels(join(dir, 'models'));
  segmenters = await Promise.all(specs.map((spec) => OnnxSegmenter.open(spec, { executionProviders: ['cpu'], intraOpThreads: 1 })));
  input = join(dir, 'in.mp4');
  await ffmpeg([
    '-f', 'lavfi', '-i', `testsrc2=size=320x240:rate=${FPS}:duration=${SECONDS}`,
    '-f', 'lavfi', '-t', String(SECONDS), '-i', 'sine=frequency=440:sample_rate=44100',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '40', '-pix_fmt', 'yuv420p', '-c:a', 'aac', input,
  ]);
  pieces = new BackgroundRemovalPieces(
    { maxSeconds: 60, maxResultBytes: 1024 ** 3, timeLimitMs: 120_000, segmentAfterSeconds: 3, segmentSeconds: 2, warmupSeconds: 1 },
    new MattingModelRegistry({ person: segmenters, general: [] }),
  );
});

afterAll(async () => {
  await Promise.all((segmenters ?? []).map((segmenter) => segmenter.release()));
  await s3?.stop();
  await rm(dir, { recursive: true, force: true });
});

function harness(status: JobStatus = 'PROCESSING', failedAttempts = 0) {
  const published: { kind: JobReportKind; report: ReportPayloads[JobReportKind] }[] = [];
  const settings = { workerId: 'worker-a', maxFailedAttempts: 3, workDir: dir, transloadTimeoutMs: 60_000, uploadMarginMs: 60_000, progressIntervalMs: 1000 };
  const reports = new AttemptReports({ publish: async (kind, report) => void published.push({ kind, report }) }, settings);
  const cancellations = new CancellationRegistry();
  const useCase = new RunPieceUseCase(
    { currentJob: async () => ({ status, failedAttempts }) },
    reports,
    pieces,
    storage,
    { maxInputBytes: 1024 ** 3, maxResultBytes: 1024 ** 3 },
    new ResultUploader(storage),
    settings,
    cancellations,
  );
  const reported = <K extends JobReportKind>(kind: K) => published.filter((entry) => entry.kind === kind).map((entry) => entry.report as ReportPayloads[K]);
  return { useCase, published, reported, cancellations };
}

const delivery = { attempt: 1, isLastDelivery: false };

describe('a long background removal run as pieces on the bucket', () => {
  it('plans, passes, mattes each segment from its plate and joins them into the job\'s files with the sound and its kept matte, then deletes the pieces', async () => {
    const job = { version: 1 as const, job_id: randomUUID(), account_id: ACCOUNT, job_type: 'video-background-removal' as const, options: { ...BACKGROUND_REMOVAL_DEFAULTS, output_codec: 'vp9' as const }, requested_at: new Date().toISOString() };
    const probe = await probeMedia(new ProcessRunner(), { ffprobePath: FFPROBE_PATH, inputPath: input, timeoutMs: 10_000 });
    expect(await pieces.plan(input, { seconds: 2, videoFrames: 50, probe }, AbortSignal.timeout(10_000))).toBeNull();
    const plan = (await pieces.plan(input, { seconds: SECONDS, videoFrames: FPS * SECONDS, probe }, AbortSignal.timeout(10_000)))!;
    // Segments of 2 s on the keyframes every 40 frames, the last running on to the end.
    expect(plan.segments.map(({ cut_from, matte_from, from, to }) => [cut_from, matte_from, from, to])).toEqual([
      [0, 0, 0, 40],
      [0, 15, 40, 80],
      [40, 55, 80, 150],
    ]);
    expect(plan.segments.every((segment) => segment.times !== null)).toBe(true);

    const inputKey = await new ResultUploader(storage).storePieceInput(job, input);
    const pieceInput: PieceInputV1 = { input_key: inputKey, frames: plan.frames, fps: plan.fps, media_duration_seconds: SECONDS };
    const { useCase, reported } = harness();
    const pass: PlatePassWorkV1 = { ...job, ...pieceInput, segments: plan.segments };
    await expect(useCase.execute('pass', pass, delivery)).resolves.toBe('succeeded');
    const keys = pieceKeys(job);
    expect(reported('plate_stored').map(({ index, plate_key }) => [index, plate_key])).toEqual([
      [1, keys.plate(1)],
      [2, keys.plate(2)],
    ]);

    for (const segment of plan.segments) {
      const work: SegmentWorkV1 = { ...job, ...pieceInput, segment, plate_key: segment.index === 0 ? null : keys.plate(segment.index) };
      await expect(useCase.execute('segment', work, delivery)).resolves.toBe('succeeded');
    }
    const done = reported('segment_done') as SegmentDoneReportV1[];
    expect(done.map((report) => [report.index, report.output.frames, report.output.files.map((file) => file.object_key), report.output.kept_matte_key])).toEqual([
      [0, 40, [keys.file(0, { role: 'transparent', fileExtension: 'webm' })], keys.keptMatte(0)],
      [1, 40, [keys.file(1, { role: 'transparent', fileExtension: 'webm' })], keys.keptMatte(1)],
      [2, 70, [keys.file(2, { role: 'transparent', fileExtension: 'webm' })], keys.keptMatte(2)],
    ]);

    const joinWork: SegmentJoinWorkV1 = { ...job, ...pieceInput, segments: done.map((report) => report.output) };
    await expect(useCase.execute('join', joinWork, delivery)).resolves.toBe('succeeded');
    const [succeeded] = reported('succeeded');
    expect(succeeded).toMatchObject({ job_id: job.job_id, media_duration_seconds: SECONDS, result: { job_type: 'video-background-removal', files: [expect.objectContaining({ file_name: `${job.job_id}-transparent.webm` })] } });
    const result = succeeded!.result as { files: { object_key: string }[]; quality?: { frames: number } };
    expect(result.quality?.frames).toBe(FPS * SECONDS);
    const joined = join(dir, 'joined.webm');
    await storage.downloadToFile(result.files[0]!.object_key, joined, 1024 ** 3);
    expect((await videoFrameTimes(joined)).length).toBe(FPS * SECONDS);
    expect((await streamsOf(joined)).audio).toHaveLength(1);
    // What an export of it reads (decision 0106): the segments' mattes joined, and the input.
    expect(succeeded!.result).toMatchObject({
      export_source: {
        kind: 'matte',
        file: expect.objectContaining({ file_name: `${job.job_id}-kept-matte.mkv` }),
        source: expect.objectContaining({ file_name: `${job.job_id}-kept-source` }),
        duration_seconds: SECONDS,
      },
    });
    const source = (succeeded!.result as { export_source: { file: { object_key: string } } }).export_source;
    const keptMatte = join(dir, 'kept-matte.mkv');
    await storage.downloadToFile(source.file.object_key, keptMatte, 1024 ** 3);
    expect((await videoFrameTimes(keptMatte)).length).toBe(FPS * SECONDS);

    const left = [inputKey, keys.plate(1), keys.plate(2), ...done.flatMap((report) => [...report.output.files.map((file) => file.object_key), report.output.kept_matte_key!])];
    expect(await Promise.all(left.map((key) => storage.stat(key)))).toEqual(left.map(() => null));
    expect((await readdir(dir)).filter((name) => name.startsWith('piece-'))).toEqual([]);
  }, 240_000);

  it('runs no piece of a job that is already final, and fails a piece whose input is gone for a reason of ours', async () => {
    const job = { version: 1 as const, job_id: randomUUID(), account_id: ACCOUNT, job_type: 'video-background-removal' as const, options: BACKGROUND_REMOVAL_DEFAULTS, requested_at: new Date().toISOString() };
    const segment = { index: 0, cut_from: 0, matte_from: 0, from: 0, to: 40, times: null };
    const work: SegmentWorkV1 = { ...job, input_key: pieceKeys(job).input, frames: 150, fps: FPS, media_duration_seconds: SECONDS, segment, plate_key: null };
    const cancelled = harness('CANCELLED');
    await expect(cancelled.useCase.execute('segment', work, delivery)).resolves.toBe('skipped');
    expect(cancelled.published).toEqual([]);

    // Nothing stored under the input's key: the piece is retried like any attempt that failed for us,
    // against its own deliveries, however many attempts the job's other pieces spent; on its last
    // delivery the job fails.
    const missing = harness('PROCESSING', 2);
    await expect(missing.useCase.execute('segment', work, delivery)).rejects.toThrow();
    expect(missing.published.map((entry) => entry.kind)).toEqual(['retrying']);
    await expect(missing.useCase.execute('segment', work, { attempt: 20, isLastDelivery: true })).resolves.toBe('failed');
    expect(missing.published.map((entry) => entry.kind)).toEqual(['retrying', 'failed']);
  });
});
