import { createReadStream } from 'node:fs';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { finished, pipeline } from 'node:stream/promises';
import { ProcessRunner, type CommandRunner } from '../media';
import { Deadline } from '../media/deadline';
import type { AudioStreamProbe } from '../media/parse-probe';
import type { MatteQuality } from './matte-quality';
import { joinSegmentsArgs, keptMatteLimit, sequenceSoundArgs, type JoinPlan } from './matting-args';
import { PngSequenceZip, ResultTooLargeError, resultTooLarge } from './png-sequence-zip';
import { DEFAULT_MAX_RESULT_BYTES, type MattedFile, type MattedVideo } from './remove-background';

export interface SegmentJoinRequest {
  // The whole video the segments were matted from: its sound goes into the joined files.
  inputPath: string;
  audio: AudioStreamProbe | null;
  // Each segment's result (removeBackground with `segment`), in the video's order.
  segments: readonly MattedVideo[];
  // Each segment's kept matte (removeBackground's keepMatteAt), in the same order, to be joined at
  // keepMatteAt into the job's; absent where a segment kept none.
  keptMattes?: readonly string[];
  keepMatteAt?: string;
  workDir: string;
  maxSeconds: number;
  maxResultBytes?: number;
  timeoutMs: number;
  signal?: AbortSignal;
  ffmpegPath?: string;
  runner?: CommandRunner;
}

// The files a long video's segments were matted into (decision 0100), made the job's files: each kind
// of file the segments wrote is concatenated by packet copy (every segment's file begins on a
// keyframe, at the same size and settings), with the input's sound added once over the whole; a PNG
// sequence's pictures go into one ZIP, numbered on, with the sound's WAV. Nothing is encoded again.
// The segments' kept mattes are joined the same way into the job's, for its exports (decision 0106).
// On failure nothing it wrote is left.
export async function joinSegments(request: SegmentJoinRequest): Promise<MattedVideo> {
  const first = request.segments[0];
  if (!first) throw new RangeError('a join needs at least one segment');
  const roles = first.files.map((file) => file.role).join();
  if (request.segments.some((segment) => segment.files.map((file) => file.role).join() !== roles)) throw new Error('the segments wrote different files');
  // Each segment's frames last their number at this rate: the next one starts where it ends.
  const { frameRate } = first;
  if (request.segments.some((segment) => segment.frameRate !== frameRate)) throw new Error('the segments were numbered at different rates');
  const runner = request.runner ?? new ProcessRunner();
  const deadline = new Deadline(request.timeoutMs, 'Joining the segments');
  const maxBytes = request.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
  const frames = request.segments.reduce((sum, segment) => sum + segment.frames, 0);
  const outputs = first.files.map((file) => joinedFile(request.workDir, file));
  await mkdir(request.workDir, { recursive: true });
  try {
    for (const [index, file] of first.files.entries()) {
      const parts = request.segments.map((segment) => ({ path: segment.files[index]!.path, frames: segment.frames }));
      if (file.fileExtension === 'pngs') await zipSequence(request, parts, outputs[index]!.path, maxBytes, runner, deadline);
      else await concatenate(request, joinedAs(file), parts, frameRate, outputs[index]!.path, maxBytes, runner, deadline);
    }
    const sizes = await Promise.all(outputs.map((file) => stat(file.path).then((info) => info.size)));
    if (sizes.some((size) => size >= maxBytes)) throw resultTooLarge(maxBytes);
  } catch (error) {
    await Promise.all(outputs.map((file) => rm(file.path, { force: true })));
    throw error instanceof ResultTooLargeError ? resultTooLarge(maxBytes) : error;
  }
  const quality = joinedQuality(request.segments);
  const matteKept = await joinKeptMattes(request, frameRate, maxBytes, runner, deadline);
  return { files: outputs, frames, frameRate, durationSeconds: frames / rate(frameRate), width: first.width, height: first.height, ...(quality && { quality }), ...(matteKept !== null && { matteKept }) };
}

// The segments' kept mattes as one, as a whole run keeps it: false where any segment kept none, or
// the whole reached the kept matte's limit (the job then keeps nothing to export); null where none
// was asked for.
async function joinKeptMattes(request: SegmentJoinRequest, frameRate: string, maxBytes: number, runner: CommandRunner, deadline: Deadline): Promise<boolean | null> {
  const { keptMattes, keepMatteAt } = request;
  if (!keepMatteAt) return null;
  if (!keptMattes || keptMattes.length !== request.segments.length) return false;
  const limit = keptMatteLimit(maxBytes);
  const parts = request.segments.map((segment, index) => ({ path: keptMattes[index]!, frames: segment.frames }));
  try {
    await concatenate(request, { name: 'kept-matte', container: 'matroska', withSound: false }, parts, frameRate, keepMatteAt, limit, runner, deadline);
    if ((await stat(keepMatteAt)).size < limit) return true;
  } catch (error) {
    await rm(keepMatteAt, { force: true });
    throw error;
  }
  await rm(keepMatteAt, { force: true });
  return false;
}

// The job's file of the kind a segment's file is: a PNG sequence's is the ZIP.
function joinedFile(workDir: string, file: MattedFile): MattedFile {
  if (file.fileExtension === 'pngs') return { path: join(workDir, 'frames.zip'), role: 'frames', contentType: 'application/zip', fileExtension: 'zip' };
  return { ...file, path: join(workDir, `${file.role}.${file.fileExtension}`) };
}

interface Part {
  path: string;
  frames: number;
}

// What a concatenation writes: its list's name, the container, and whether the input's sound goes in.
interface Joined {
  name: string;
  container: JoinPlan['container'];
  withSound: boolean;
}

async function concatenate(request: SegmentJoinRequest, joined: Joined, parts: readonly Part[], frameRate: string, outputPath: string, maxFileBytes: number, runner: CommandRunner, deadline: Deadline): Promise<void> {
  const { container, withSound } = joined;
  const listPath = join(request.workDir, `${joined.name}.ffconcat`);
  // The stated durations place each segment right after the one before, to the frame.
  const lines = parts.flatMap((part) => [`file '${part.path.replaceAll("'", "'\\''")}'`, `duration ${(part.frames / rate(frameRate)).toFixed(6)}`]);
  await writeFile(listPath, ['ffconcat version 1.0', ...lines, ''].join('\n'));
  try {
    const args = joinSegmentsArgs({ inputPath: request.inputPath, maxSeconds: request.maxSeconds, audio: request.audio, listPath, container, withSound, maxFileBytes, outputPath });
    await runner.run({ file: request.ffmpegPath ?? 'ffmpeg', args }, { timeoutMs: deadline.remainingMs(), signal: request.signal });
  } finally {
    await rm(listPath, { force: true });
  }
}

// A segment file's kind as joined: its container, and the sound in all but the H.264 matte.
function joinedAs(file: MattedFile): Joined {
  const container = file.fileExtension === 'webm' ? 'webm' : file.fileExtension === 'mov' ? 'mov' : 'mp4';
  return { name: file.role, container, withSound: file.role !== 'matte' };
}

// Each segment's PNGs, back to back as its encoder wrote them, go into the ZIP in turn.
async function zipSequence(request: SegmentJoinRequest, parts: readonly Part[], path: string, maxBytes: number, runner: CommandRunner, deadline: Deadline): Promise<void> {
  const zip = new PngSequenceZip(path, maxBytes);
  const wavPath = join(request.workDir, 'audio.wav');
  try {
    for (const part of parts) await pipeline(createReadStream(part.path), zip.frames, { end: false, signal: request.signal ?? new AbortController().signal });
    zip.frames.end();
    await finished(zip.frames);
    if (request.audio) {
      const args = sequenceSoundArgs({ inputPath: request.inputPath, maxSeconds: request.maxSeconds, maxFileBytes: maxBytes, audio: request.audio, wavPath });
      await runner.run({ file: request.ffmpegPath ?? 'ffmpeg', args }, { timeoutMs: deadline.remainingMs(), signal: request.signal });
    }
    await zip.finish(request.audio ? wavPath : null);
    const expected = parts.reduce((sum, part) => sum + part.frames, 0);
    if (zip.frameCount !== expected) throw new Error(`the PNG sequence holds ${zip.frameCount} pictures of ${expected}`);
  } catch (error) {
    zip.abort();
    throw error;
  } finally {
    await rm(wavPath, { force: true });
  }
}

// The segments' figures as one run's: frames add up, and flicker is the mean over all their still
// samples (each segment counts its first frame's change from its warm-up's last, as one run does).
function joinedQuality(segments: readonly MattedVideo[]): MatteQuality | undefined {
  if (!segments.every((segment) => segment.quality)) return undefined;
  const figures = segments.map((segment) => segment.quality!);
  const sum = (figure: (quality: MatteQuality) => number) => figures.reduce((total, quality) => total + figure(quality), 0);
  const stillSamples = sum((quality) => quality.stillSamples);
  return {
    frames: sum((quality) => quality.frames),
    framesWithPerson: sum((quality) => quality.framesWithPerson),
    flicker: stillSamples === 0 ? 0 : sum((quality) => quality.flicker * quality.stillSamples) / stillSamples,
    stillSamples,
  };
}

function rate(frameRate: string): number {
  const [num, den = '1'] = frameRate.split('/');
  return Number(num) / Number(den);
}
