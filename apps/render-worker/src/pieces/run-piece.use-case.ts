import { Inject, Injectable, Logger } from '@nestjs/common';
import { isFinalJobStatus, type PlatePassWorkV1, type SegmentJoinWorkV1, type SegmentWorkV1, type WorkPiece, type WorkPiecePayloads } from '@vj/contracts';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PlateSnapshot } from '../matting/background-plate';
import { decodePlateSnapshot, encodePlateSnapshot } from '../matting/plate-snapshot-file';
import { AttemptFailures, type Attempt, type JobOutcome } from '../processing/attempt-failures';
import { AttemptReports } from '../processing/attempt-reports';
import { CancellationRegistry } from '../processing/cancellation-registry';
import { untilReachable } from '../processing/dependency-outage';
import { JOB_STATUS_READER, WORKER_SETTINGS, type JobStatusReader, type WorkerSettings } from '../processing/ports';
import type { Delivery } from '../processing/process-job.use-case';
import { ResultUploader } from '../processing/result-uploader';
import { storedResult } from '../processing/stored-result';
import { keptMatte } from '../processors/video-background-removal.processor';
import { withTimeLimit } from '../processing/with-time-limit';
import { BackgroundRemovalPieces } from './background-removal-pieces';
import { mattedSegment, pieceKeys, segmentOutput } from './piece-files';

// The bucket as the pieces use it: each piece reads what the ones before it stored.
export interface PieceObjects {
  putFile(key: string, path: string, contentType: string): Promise<{ size: number }>;
  downloadToFile(key: string, path: string, maxBytes: number, signal?: AbortSignal): Promise<unknown>;
  remove(key: string): Promise<void>;
}
export const PIECE_OBJECTS = Symbol('PieceObjects');

export interface PieceLimits {
  // The largest input a job may have (the larger of a URL's and an upload's).
  maxInputBytes: number;
  // The largest result file, which bounds a segment's too.
  maxResultBytes: number;
}
export const PIECE_LIMITS = Symbol('PieceLimits');

// A plate of the largest picture taken (4096x2304) is about 66 MB inflated.
const MAX_PLATE_BYTES = 128 * 1024 ** 2;

// Runs one delivery of a long background removal's piece (decision 0101): the pass, a segment or the
// join. Like a whole job's delivery it skips a job already final, stops on cancel, and goes through
// AttemptFailures when it throws; it reads the input and what the pieces before it stored from the
// bucket, and stores what it hands on before it reports it, so a worker killed after storing loses
// nothing: the message comes back, and the piece is run and reported again.
@Injectable()
export class RunPieceUseCase {
  private readonly logger = new Logger(RunPieceUseCase.name);
  private readonly failures: AttemptFailures;

  constructor(
    @Inject(JOB_STATUS_READER) private readonly statuses: JobStatusReader,
    private readonly reports: AttemptReports,
    private readonly pieces: BackgroundRemovalPieces,
    @Inject(PIECE_OBJECTS) private readonly objects: PieceObjects,
    @Inject(PIECE_LIMITS) private readonly limits: PieceLimits,
    private readonly uploader: ResultUploader,
    @Inject(WORKER_SETTINGS) private readonly settings: WorkerSettings,
    private readonly cancellations: CancellationRegistry,
  ) {
    this.failures = new AttemptFailures(reports, settings.maxFailedAttempts);
  }

  async execute<P extends WorkPiece>(piece: P, work: WorkPiecePayloads[P], delivery: Delivery): Promise<JobOutcome> {
    const registration = this.cancellations.register(work.job_id);
    const signal = delivery.signal ? AbortSignal.any([registration.signal, delivery.signal]) : registration.signal;
    const attempt: Attempt = { number: delivery.attempt, failedBefore: 0, isLastDelivery: delivery.isLastDelivery };
    const what = `job ${work.job_id} ${piece}${'segment' in work ? ` ${work.segment.index}` : ''}`;
    try {
      const current = await untilReachable(what, () => this.statuses.currentJob(work), signal, this.logger);
      if (current === null || isFinalJobStatus(current.status)) {
        this.logger.log(`${what}: the job is ${current?.status ?? 'unknown to the jobs service'}: skipping it`);
        return 'skipped';
      }
      // Each piece retries its own failures of ours until its message's last delivery
      // (WORK_MAX_DELIVER): the job's count is shared by all its pieces, and a few pieces failing once
      // each must not fail a job whose every piece can still finish.
      const workDir = await mkdtemp(join(this.settings.workDir, `piece-${work.job_id}-`));
      try {
        const inputPath = join(workDir, 'input');
        await this.objects.downloadToFile(work.input_key, inputPath, this.limits.maxInputBytes, signal);
        return await withTimeLimit(this.pieces.timeLimitMs, signal, (limited) => this.run(piece, work, attempt, inputPath, workDir, limited));
      } finally {
        await rm(workDir, { recursive: true, force: true });
      }
    } catch (error) {
      return await this.failures.handle(work, attempt, signal, error, what);
    } finally {
      registration.release();
    }
  }

  private run(piece: WorkPiece, work: WorkPiecePayloads[WorkPiece], attempt: Attempt, inputPath: string, workDir: string, signal: AbortSignal): Promise<JobOutcome> {
    switch (piece) {
      case 'pass':
        return this.pass(work as PlatePassWorkV1, inputPath, workDir, signal);
      case 'segment':
        return this.segment(work as SegmentWorkV1, inputPath, workDir, signal);
      case 'join':
        return this.join(work as SegmentJoinWorkV1, attempt, inputPath, workDir, signal);
    }
  }

  // Each plate is stored, then reported, in the order the pass hands them on, while the pass goes on.
  // Past the last plate the rest of the video teaches no segment anything: the pass stops there, so
  // nothing after it can fail a job whose plates are all stored. A job that ended meanwhile (an event
  // this worker missed) is stored nothing more.
  private async pass(work: PlatePassWorkV1, inputPath: string, workDir: string, signal: AbortSignal): Promise<JobOutcome> {
    const keys = pieceKeys(work);
    const needed = work.segments.filter((segment) => segment.index > 0 && segment.matte_from > 0).length;
    const enough = new AbortController();
    let ended = false;
    let handed = 0;
    let stored: Promise<void> = Promise.resolve();
    const store = async (index: number, plate: PlateSnapshot) => {
      if (ended || !(await this.stillProcessing(work, signal))) {
        ended = true;
        return enough.abort();
      }
      const path = join(workDir, `plate-${index}`);
      await writeFile(path, await encodePlateSnapshot(plate));
      await this.objects.putFile(keys.plate(index), path, 'application/octet-stream');
      await rm(path, { force: true });
      await untilReachable(`job ${work.job_id}: plate ${index}'s report`, () => this.reports.plateStored(work, index, keys.plate(index)), signal, this.logger);
    };
    try {
      await this.pieces.pass(work, inputPath, workDir, AbortSignal.any([signal, enough.signal]), (index, plate) => {
        stored = stored.then(() => store(index, plate));
        // Awaited once the pass ends; marked handled so a failed store does not end the process first.
        stored.catch(() => undefined);
        if (++handed === needed) enough.abort();
      });
    } catch (error) {
      if (!enough.signal.aborted || signal.aborted) throw error;
    }
    await stored;
    return ended ? 'stopped' : 'succeeded';
  }

  private async segment(work: SegmentWorkV1, inputPath: string, workDir: string, signal: AbortSignal): Promise<JobOutcome> {
    const keys = pieceKeys(work);
    const { index } = work.segment;
    let plate: PlateSnapshot | null = null;
    if (work.plate_key !== null) {
      const path = join(workDir, 'plate');
      await this.objects.downloadToFile(work.plate_key, path, MAX_PLATE_BYTES, signal);
      plate = await decodePlateSnapshot(await readFile(path), MAX_PLATE_BYTES);
    }
    const matted = await this.pieces.segment(work, inputPath, plate, workDir, signal);
    if (!(await this.stillProcessing(work, signal))) return 'stopped';
    const stored: string[] = [];
    for (const file of matted.files) {
      signal.throwIfAborted();
      await this.objects.putFile(keys.file(index, file), file.path, file.contentType);
      stored.push(keys.file(index, file));
    }
    let keptMatteKey: string | null = null;
    if (matted.keptMattePath) {
      signal.throwIfAborted();
      await this.objects.putFile(keys.keptMatte(index), matted.keptMattePath, 'video/x-matroska');
      keptMatteKey = keys.keptMatte(index);
    }
    await untilReachable(`job ${work.job_id}: segment ${index}'s report`, () => this.reports.segmentDone(work, index, segmentOutput(matted, stored, keptMatteKey)), signal, this.logger);
    return 'succeeded';
  }

  // The job's files, stored and reported as a whole run's are, with the matte and input it keeps for
  // exports where every segment kept its matte; then the pieces' objects are deleted.
  private async join(work: SegmentJoinWorkV1, attempt: Attempt, inputPath: string, workDir: string, signal: AbortSignal): Promise<JobOutcome> {
    const segments = [];
    for (const [index, output] of work.segments.entries()) {
      const dir = join(workDir, `segment-${index}`);
      await mkdir(dir);
      const paths = [];
      for (const file of output.files) {
        const path = join(dir, `${file.role}.${file.file_extension}`);
        await this.objects.downloadToFile(file.object_key, path, this.limits.maxResultBytes, signal);
        paths.push(path);
      }
      segments.push(mattedSegment(output, paths));
    }
    const keptMattes = await this.keptMattes(work, workDir, signal);
    const joinDir = join(workDir, 'joined');
    await mkdir(joinDir);
    const joined = await this.pieces.join(inputPath, segments, joinDir, signal, keptMattes);
    if (!(await this.stillProcessing(work, signal))) return 'stopped';
    const files = joined.files.map((file) => ({ path: file.path, fileName: `${work.job_id}-${file.role}.${file.fileExtension}`, contentType: file.contentType }));
    const kept = joined.keptMattePath ? keptMatte(work.job_id, joined.keptMattePath, inputPath) : undefined;
    const uploaded = await this.uploader.uploadWithKept(work, attempt.number, { files, durationSeconds: joined.durationSeconds, ...(kept && { kept }) }, signal);
    const quality = joined.quality && { kind: 'cutout' as const, frames: joined.quality.frames, frames_with_person: joined.quality.framesWithPerson, flicker: joined.quality.flicker };
    const result = storedResult(work.job_type, uploaded.files, uploaded.exportSource, quality);
    await untilReachable(`job ${work.job_id}: its success report`, () => this.reports.succeeded(work, attempt.number, result, work.media_duration_seconds), signal, this.logger);
    const keys = pieceKeys(work);
    const plates = work.segments.slice(1).map((_, index) => keys.plate(index + 1));
    const segmentFiles = work.segments.flatMap((output) => [...output.files.map((file) => file.object_key), ...(output.kept_matte_key ? [output.kept_matte_key] : [])]);
    await this.uploader.remove(work, [work.input_key, ...plates, ...segmentFiles]);
    return 'succeeded';
  }

  // Every segment's kept matte, downloaded in order; undefined where a segment kept none (or its report
  // was written before segments kept one): the job then keeps nothing to export.
  private async keptMattes(work: SegmentJoinWorkV1, workDir: string, signal: AbortSignal): Promise<string[] | undefined> {
    const keys = work.segments.map((output) => output.kept_matte_key);
    if (!keys.every((key): key is string => typeof key === 'string')) return undefined;
    const paths = [];
    for (const [index, key] of keys.entries()) {
      const path = join(workDir, `segment-${index}`, 'kept-matte.mkv');
      await this.objects.downloadToFile(key, path, this.limits.maxResultBytes, signal);
      paths.push(path);
    }
    return paths;
  }

  // As for a whole run: a job that ended meanwhile (an event this worker missed) stores nothing more.
  private async stillProcessing(work: WorkPiecePayloads[WorkPiece], signal: AbortSignal): Promise<boolean> {
    return (await untilReachable(`job ${work.job_id}: its status`, () => this.statuses.currentJob(work), signal, this.logger))?.status === 'PROCESSING';
  }
}
