import { createReadStream } from 'node:fs';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { finished, pipeline } from 'node:stream/promises';
import { ProcessRunner, type CommandRunner } from '../media';
import { Deadline } from '../media/deadline';
import { MediaError } from '../media/media-error';
import type { AudioStreamProbe } from '../media/parse-probe';
import type { MatteQuality } from './matte-quality';
import { joinSegmentsArgs, sequenceSoundArgs, type JoinPlan } from './matting-args';
import { PngSequenceZip, ResultTooLargeError } from './png-sequence-zip';
import { DEFAULT_MAX_RESULT_BYTES, type MattedFile, type MattedVideo } from './remove-background';

export interface SegmentJoinRequest {
  // The whole video the segments were matted from: its sound goes into the joined files.
  inputPath: string;
  audio: AudioStreamProbe | null;
  // The input's frame rate as ffmpeg states it ("30000/1001"): each segment lasts its frames at it.
  frameRate: string;
  // Each segment's result (removeBackground with `segment`), in the video's order.
  segments: readonly MattedVideo[];
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
export async function joinSegments(request: SegmentJoinRequest): Promise<MattedVideo> {
  const first = request.segments[0];
  if (!first) throw new RangeError('a join needs at least one segment');
  const roles = first.files.map((file) => file.role).join();
  if (request.segments.some((segment) => segment.files.map((file) => file.role).join() !== roles)) throw new Error('the segments wrote different files');
  const runner = request.runner ?? new ProcessRunner();
  const deadline = new Deadline(request.timeoutMs, 'Joining the segments');
  const maxBytes = request.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
  const frames = request.segments.reduce((sum, segment) => sum + segment.frames, 0);
  const files: MattedFile[] = [];
  await mkdir(request.workDir, { recursive: true });
  try {
    for (const [index, file] of first.files.entries()) {
      const parts = request.segments.map((segment) => ({ path: segment.files[index]!.path, frames: segment.frames }));
      files.push(file.fileExtension === 'pngs' ? await zipSequence(request, parts, maxBytes, runner, deadline) : await concatenate(request, file, parts, maxBytes, runner, deadline));
    }
    const sizes = await Promise.all(files.map((file) => stat(file.path).then((info) => info.size)));
    if (sizes.some((size) => size >= maxBytes)) throw tooLarge(maxBytes);
  } catch (error) {
    await Promise.all(files.map((file) => rm(file.path, { force: true })));
    throw error instanceof ResultTooLargeError ? tooLarge(maxBytes) : error;
  }
  const fps = rate(request.frameRate);
  const quality = joinedQuality(request.segments);
  return { files, frames, durationSeconds: frames / fps, width: first.width, height: first.height, ...(quality && { quality }) };
}

// The segments' figures as one run's: frames add up, and flicker, a mean over the still samples of
// each frame, is weighed by frames (each segment counts its first frame's change from its warm-up).
function joinedQuality(segments: readonly MattedVideo[]): MatteQuality | undefined {
  if (!segments.every((segment) => segment.quality)) return undefined;
  const figures = segments.map((segment) => segment.quality!);
  const frames = figures.reduce((sum, quality) => sum + quality.frames, 0);
  return {
    frames,
    framesWithPerson: figures.reduce((sum, quality) => sum + quality.framesWithPerson, 0),
    flicker: frames === 0 ? 0 : figures.reduce((sum, quality) => sum + quality.flicker * quality.frames, 0) / frames,
  };
}

interface Part {
  path: string;
  frames: number;
}

async function concatenate(request: SegmentJoinRequest, file: MattedFile, parts: readonly Part[], maxFileBytes: number, runner: CommandRunner, deadline: Deadline): Promise<MattedFile> {
  const container: JoinPlan['container'] = file.fileExtension === 'webm' ? 'webm' : file.fileExtension === 'mov' ? 'mov' : 'mp4';
  const listPath = join(request.workDir, `${file.role}.ffconcat`);
  // The stated durations place each segment right after the one before, to the frame.
  const [num, den = '1'] = request.frameRate.split('/');
  const lines = parts.flatMap((part) => [`file '${part.path.replaceAll("'", "'\\''")}'`, `duration ${((part.frames * Number(den)) / Number(num)).toFixed(6)}`]);
  await writeFile(listPath, ['ffconcat version 1.0', ...lines, ''].join('\n'));
  const outputPath = join(request.workDir, `${file.role}.${file.fileExtension}`);
  const args = joinSegmentsArgs({ inputPath: request.inputPath, maxSeconds: request.maxSeconds, audio: request.audio, listPath, container, withSound: file.role !== 'matte', maxFileBytes, outputPath });
  await runner.run({ file: request.ffmpegPath ?? 'ffmpeg', args }, { timeoutMs: deadline.remainingMs(), signal: request.signal });
  return { ...file, path: outputPath };
}

// Each segment's PNGs, back to back as its encoder wrote them, go into the ZIP in turn.
async function zipSequence(request: SegmentJoinRequest, parts: readonly Part[], maxBytes: number, runner: CommandRunner, deadline: Deadline): Promise<MattedFile> {
  const path = join(request.workDir, 'frames.zip');
  const zip = new PngSequenceZip(path, maxBytes);
  try {
    for (const part of parts) await pipeline(createReadStream(part.path), zip.frames, { end: false, signal: request.signal ?? new AbortController().signal });
    zip.frames.end();
    await finished(zip.frames);
    const expected = parts.reduce((sum, part) => sum + part.frames, 0);
    let wavPath: string | null = null;
    if (request.audio) {
      wavPath = join(request.workDir, 'audio.wav');
      const args = sequenceSoundArgs({ inputPath: request.inputPath, maxSeconds: request.maxSeconds, maxFileBytes: maxBytes, audio: request.audio, wavPath });
      await runner.run({ file: request.ffmpegPath ?? 'ffmpeg', args }, { timeoutMs: deadline.remainingMs(), signal: request.signal });
    }
    await zip.finish(wavPath);
    if (zip.frameCount !== expected) throw new Error(`the PNG sequence holds ${zip.frameCount} pictures of ${expected}`);
  } catch (error) {
    zip.abort();
    throw error;
  }
  return { path, role: 'frames', contentType: 'application/zip', fileExtension: 'zip' };
}

function tooLarge(maxBytes: number): MediaError {
  return new MediaError('input_validation', 'The result of this video is too large', [
    { type: 'result_too_large', message: `A result file reached the limit of ${maxBytes} bytes: choose another output_codec, or a shorter or smaller video`, field: 'output_codec' },
  ]);
}

function rate(frameRate: string): number {
  const [num, den = '1'] = frameRate.split('/');
  return Number(num) / Number(den);
}
