import { PassThrough, type Writable } from 'node:stream';
import { AbortError, isAbortError } from '../media';
import { throwIfAborted } from '../media/media-error';
import { ProcessFailedError, type CommandRunner, type RunResult } from '../media/process-runner';
import { readFrames, writeFrame, writeFrames } from './frame-stream';

// decoder | this process | encoder, for raw frames: each frame the decoder writes becomes one alpha
// frame the encoder reads, and with `sideToEncoder` its side frame is handed on as the picture. A
// plate pass runs without an encoder: each frame is finished and its alpha dropped.
// Frames are handed through in order, `depth` at a time at most: start(n + depth - 1) runs before
// finish(n), so a stage can overlap its own work on some frames (model runs on another thread) with
// this thread's work on others. Back-pressure all the way: a slow encoder stalls
// the decoder, so memory stays flat however long the video.

export interface FrameStage<P> {
  // Begins work on a frame (and its side frame, when the decoder writes one); must not block on
  // anything slow.
  start(frame: Buffer, side: Buffer | undefined): P;
  // Completes it with the bytes the encoder is to read for this frame.
  finish(pending: P): Promise<Uint8Array>;
}

export interface FramePipelineRequest<P> {
  runner: CommandRunner;
  ffmpegPath: string;
  decodeArgs: string[];
  // Null: nothing is encoded, and each frame's alpha is dropped once finished (a plate pass).
  encodeArgs: string[] | null;
  // Bytes of one frame of the decoder's output (stdout), and of its second output (pipe:3), read
  // in step with the first, when it has one.
  frameBytes: number;
  sideFrameBytes?: number;
  // The side frames are the pictures the encoder encodes: each goes on to its stdin with its alpha.
  sideToEncoder?: boolean;
  // Bytes of one alpha frame the encoder reads (on stdin, or on pipe:3 when the pictures take stdin):
  // the writes are buffered up to `depth` of them.
  alphaBytes: number;
  // Where the encoder's stdout goes, when it writes the result there (a PNG sequence).
  encoderOutput?: Writable;
  // The first frames are matted and not handed to the encoder: a segment's warm-up (matting-args.ts).
  warmupFrames?: number;
  stage: FrameStage<P>;
  // Frames started and not yet finished, at most (2 or more).
  depth: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

// Which part failed first: the others were stopped because of it.
export class FramePipelineFailure extends Error {
  constructor(
    readonly part: 'decoder' | 'stage' | 'encoder',
    readonly reason: unknown,
  ) {
    super(`${part} failed: ${reason instanceof Error ? reason.message : String(reason)}`, { cause: reason });
    this.name = 'FramePipelineFailure';
  }
}

export interface FramePipelineResult {
  frames: number;
  decoder: RunResult;
}

interface InFlight<P> {
  pending: P;
  picture: Buffer | undefined;
}

// How many frames of its first output the decoder may write before their side frames.
const SIDE_LEAD_FRAMES = 16;
// How many frames the encoder's pictures and alpha frames may be handed on apart (emit).
const MAX_DRIFT_FRAMES = 16;

export async function runFramePipeline<P>(request: FramePipelineRequest<P>): Promise<FramePipelineResult> {
  const { runner, stage, signal } = request;
  throwIfAborted(signal);
  const stop = new AbortController();
  const forward = (): void => stop.abort(signal?.reason);
  signal?.addEventListener('abort', forward, { once: true });
  // ffmpeg may write several frames of its first output before the same frames of its second; the
  // first is buffered deep enough that it never waits for us while we wait for the second (the
  // decoder runs few threads, see decodeFramesArgs, which bounds how far ahead it gets).
  const decoded = new PassThrough({ highWaterMark: request.frameBytes * (request.sideFrameBytes ? SIDE_LEAD_FRAMES : 1) });
  const side = request.sideFrameBytes ? new PassThrough({ highWaterMark: request.sideFrameBytes }) : undefined;
  const toAlphas = new PassThrough({ highWaterMark: request.alphaBytes * request.depth });
  const toPictures = request.sideToEncoder && request.sideFrameBytes ? new PassThrough({ highWaterMark: request.sideFrameBytes * 2 }) : undefined;
  // Once anything fails, no stream is read again: destroying them lets the processes' pipes settle
  // instead of waiting for a reader that is gone.
  stop.signal.addEventListener('abort', () => [decoded, side, toAlphas, toPictures, request.encoderOutput].forEach((stream) => stream?.destroy()), { once: true });
  let failure: FramePipelineFailure | undefined;
  const failed =
    (part: FramePipelineFailure['part']) =>
    (reason: unknown): never => {
      failure ??= new FramePipelineFailure(part, reason);
      stop.abort();
      throw reason;
    };
  const options = { timeoutMs: request.timeoutMs, signal: stop.signal };
  const decoding = runner
    .run({ file: request.ffmpegPath, args: request.decodeArgs }, { ...options, stdout: decoded, outputs: side ? [side] : [] })
    .catch(failed('decoder'));
  // Set once every frame is handed on: an encoder that ends before (a file at its size limit, -fs)
  // reads no more, and the frames still to come would wait on it for ever. Its stderr goes with the
  // failure, for the caller to tell why.
  let handedAll = false;
  const { encodeArgs } = request;
  const encoding =
    encodeArgs === null
      ? Promise.resolve(null)
      : runner
          .run(
            { file: request.ffmpegPath, args: encodeArgs },
            { ...options, stdout: request.encoderOutput, ...(toPictures ? { stdin: toPictures, inputs: [toAlphas] } : { stdin: toAlphas }) },
          )
          .then((result) => (handedAll ? result : failed('encoder')(new ProcessFailedError(request.ffmpegPath, 0, null, result.stderrTail))), failed('encoder'));
  const handing = (async () => {
    let count = 0;
    const emit = async ({ pending, picture }: InFlight<P>): Promise<void> => {
      // A model run that never answers must not outlive the processes' time limit.
      const alpha = await untilAborted(stage.finish(pending), stop.signal);
      if (count++ < (request.warmupFrames ?? 0) || encodeArgs === null) return;
      // ffmpeg may take several frames of one input before the other's first: at 4 fps and under,
      // libx264 holds eleven pictures before the matte's encoder asks for an alpha frame. So a frame
      // waits only until either input has room, and for both once one is MAX_DRIFT_FRAMES ahead.
      const writes = [
        { stream: toAlphas, frame: alpha, maxBytes: request.alphaBytes * MAX_DRIFT_FRAMES },
        ...(toPictures && picture ? [{ stream: toPictures, frame: picture, maxBytes: picture.length * MAX_DRIFT_FRAMES }] : []),
      ];
      await (writes.length === 1 ? writeFrame(toAlphas, alpha, stop.signal) : writeFrames(writes, stop.signal)).catch(async (writeError: unknown) => {
        // A frame the encoder did not take: its exit says why (killed at the time limit, failed),
        // and a reset of its input socket can come before it; the exit is the cause, not the write.
        if (!isAbortError(writeError)) await encoding;
        throw writeError;
      });
    };
    const inFlight: InFlight<P>[] = [];
    // ffmpeg writes a frame's two outputs one after the other, so reading them in turn never stalls it.
    const sideFrames = side && request.sideFrameBytes ? readFrames(side, request.sideFrameBytes) : undefined;
    for await (const frame of readFrames(decoded, request.frameBytes)) {
      stop.signal.throwIfAborted();
      const sideFrame = sideFrames ? await sideFrames.next() : undefined;
      if (sideFrame?.done) throw new Error('the decoder\'s second output ended before its first');
      inFlight.push({ pending: stage.start(frame, sideFrame?.value), picture: sideFrame?.value });
      if (inFlight.length >= request.depth) await emit(inFlight.shift() as InFlight<P>);
    }
    for (const frame of inFlight) await emit(frame);
    handedAll = true;
    toAlphas.end();
    toPictures?.end();
    return count;
  })().catch(failed('stage'));
  const [decoder, , frames] = await Promise.allSettled([decoding, encoding, handing]);
  signal?.removeEventListener('abort', forward);
  if (signal?.aborted) throw new AbortError('The job was cancelled', { cause: signal.reason });
  // A decoder that failed on its own is the cause even when the encoder, starved, failed first; one
  // that was stopped because something else failed is not.
  if (decoder.status === 'rejected' && !isAbortError(decoder.reason)) throw new FramePipelineFailure('decoder', decoder.reason);
  if (failure) throw failure;
  return { frames: (frames as PromiseFulfilledResult<number>).value, decoder: (decoder as PromiseFulfilledResult<RunResult>).value };
}

function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(new AbortError('The frame pipeline stopped', { cause: signal.reason }));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
