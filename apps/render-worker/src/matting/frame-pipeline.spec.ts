import type { Readable, Writable } from 'node:stream';
import { AbortError, MediaError } from '../media';
import { ProcessFailedError, type CommandRunner, type ProcessCommand, type RunOptions, type RunResult } from '../media/process-runner';
import { FramePipelineFailure, runFramePipeline, type FramePipelineRequest, type FrameStage } from './frame-pipeline';

const DECODE = ['-i', '/w/in', 'pipe:1'];
const ENCODE = ['-i', 'pipe:0', '/w/out.webm'];

// What a fake process does with the streams it is given: resolving is a clean exit, rejecting a failure.
type Script = (options: RunOptions) => Promise<void>;

// ffmpeg stand-ins, told apart by their arguments. Unless scripted otherwise the encoder reads its
// inputs to the end: the alpha frames (on stdin, or on pipe:3 when the pictures take stdin);
// everything it reads is kept.
class FakeRunner implements CommandRunner {
  readonly encoded: Buffer[] = [];
  readonly pictures: Buffer[] = [];

  constructor(private readonly script: { decoder: Script; encoder?: Script }) {}

  async run(command: ProcessCommand, options: RunOptions): Promise<RunResult> {
    const decoder = command.args === DECODE;
    await (decoder ? this.script.decoder : (this.script.encoder ?? ((io) => this.read(io))))(options);
    return { stdout: '', stderrTail: decoder ? 'decoder done' : 'encoder done' };
  }

  pipe(): Promise<RunResult[]> {
    return Promise.reject(new Error('the frame pipeline starts its processes one by one'));
  }

  async read({ stdin, inputs }: RunOptions): Promise<void> {
    const keep = async (from: Readable | undefined, into: Buffer[]) => {
      for await (const chunk of from ?? []) into.push(chunk as Buffer);
    };
    // The alpha frames come on stdin unless the pictures do.
    const [alphas, pictures] = inputs?.length ? [inputs[0], stdin] : [stdin, undefined];
    await Promise.all([keep(alphas, this.encoded), keep(pictures, this.pictures)]);
  }
}

// A frame of `bytes` bytes, all `value`.
const frame = (value: number, bytes = 3) => Buffer.alloc(bytes, value);

// A decoder that writes each frame on stdout and its side frame, if any, on pipe:3 after it, then exits.
function decoding(frames: Buffer[], sides: Buffer[] = []): Script {
  return async ({ stdout, outputs }) => {
    const side = outputs?.[0];
    frames.forEach((main, i) => {
      (stdout as Writable).write(main);
      if (sides[i]) side?.write(sides[i]);
    });
    (stdout as Writable).end();
    side?.end();
  };
}

// As ProcessRunner does when the pipeline stops it: the process is killed and the run rejects.
function killedOnAbort(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new AbortError('ffmpeg stopped: cancelled')), { once: true }));
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
const failedProcess = (stderr: string) => new ProcessFailedError('ffmpeg', 1, null, stderr);

// A stage that logs its calls and finishes frame n as the two bytes [n, first byte of the frame].
function recordingStage(): FrameStage<{ index: number; frame: Buffer }> & { log: string[]; sides: (number | undefined)[] } {
  const log: string[] = [];
  const sides: (number | undefined)[] = [];
  let started = 0;
  return {
    log,
    sides,
    start(main, side) {
      log.push(`start ${started}`);
      sides.push(side?.[0]);
      return { index: started++, frame: main };
    },
    async finish({ index, frame: main }) {
      log.push(`finish ${index}`);
      return Uint8Array.of(index, main[0]);
    },
  };
}

function request<P>(runner: CommandRunner, stage: FrameStage<P>, overrides: Partial<FramePipelineRequest<P>> = {}): FramePipelineRequest<P> {
  return { runner, ffmpegPath: 'ffmpeg', decodeArgs: DECODE, encodeArgs: ENCODE, frameBytes: 3, alphaBytes: 2, stage, depth: 2, timeoutMs: 10_000, ...overrides };
}

describe('runFramePipeline', () => {
  it('hands the frames over in order, starting frame n + 1 before finishing frame n', async () => {
    const runner = new FakeRunner({ decoder: decoding([frame(10), frame(11), frame(12)]) });
    const stage = recordingStage();
    await runFramePipeline(request(runner, stage));
    expect(stage.log).toEqual(['start 0', 'start 1', 'finish 0', 'start 2', 'finish 1', 'finish 2']);
  });

  it('keeps up to `depth` frames in flight, finishing them in order', async () => {
    const runner = new FakeRunner({ decoder: decoding([frame(10), frame(11), frame(12), frame(13)]) });
    const stage = recordingStage();
    await runFramePipeline(request(runner, stage, { depth: 3 }));
    expect(stage.log).toEqual(['start 0', 'start 1', 'start 2', 'finish 0', 'start 3', 'finish 1', 'finish 2', 'finish 3']);
    expect(Buffer.concat(runner.encoded)).toEqual(Buffer.from([0, 10, 1, 11, 2, 12, 3, 13]));
  });

  it('writes the bytes each finish returns to the encoder, in frame order, and ends its input', async () => {
    const runner = new FakeRunner({ decoder: decoding([frame(10), frame(11), frame(12)]) });
    await runFramePipeline(request(runner, recordingStage()));
    expect([...Buffer.concat(runner.encoded)]).toEqual([0, 10, 1, 11, 2, 12]);
  });

  it("returns the number of frames and the decoder's result", async () => {
    const runner = new FakeRunner({ decoder: decoding([frame(10), frame(11)]) });
    const result = await runFramePipeline(request(runner, recordingStage()));
    expect(result).toEqual({ frames: 2, decoder: { stdout: '', stderrTail: 'decoder done' } });
  });

  it('cuts the decoded stream into whole frames however it arrives', async () => {
    const decoder: Script = async ({ stdout }) => {
      (stdout as Writable).write(Buffer.from([10, 10]));
      (stdout as Writable).end(Buffer.from([10, 11, 11, 11, 12]));
    };
    const runner = new FakeRunner({ decoder });
    const result = await runFramePipeline(request(runner, recordingStage()));
    // The cut-off last frame is dropped.
    expect(result.frames).toBe(2);
    expect([...Buffer.concat(runner.encoded)]).toEqual([0, 10, 1, 11]);
  });

  it("pairs each frame with the decoder's side frame written after it", async () => {
    const runner = new FakeRunner({ decoder: decoding([frame(10), frame(11), frame(12)], [frame(20, 2), frame(21, 2), frame(22, 2)]) });
    const stage = recordingStage();
    const result = await runFramePipeline(request(runner, stage, { sideFrameBytes: 2 }));
    expect(result.frames).toBe(3);
    expect(stage.sides).toEqual([20, 21, 22]);
  });

  it('hands each side frame on to the encoder as its picture, in frame order, when it is the picture', async () => {
    const runner = new FakeRunner({ decoder: decoding([frame(10), frame(11), frame(12)], [frame(20, 2), frame(21, 2), frame(22, 2)]) });
    await runFramePipeline(request(runner, recordingStage(), { sideFrameBytes: 2, sideToEncoder: true }));
    expect([...Buffer.concat(runner.pictures)]).toEqual([20, 20, 21, 21, 22, 22]);
    expect([...Buffer.concat(runner.encoded)]).toEqual([0, 10, 1, 11, 2, 12]);
  });

  it("mattes a segment's warm-up and hands the encoder only the frames after it, counting them all", async () => {
    const runner = new FakeRunner({ decoder: decoding([frame(10), frame(11), frame(12)], [frame(20, 2), frame(21, 2), frame(22, 2)]) });
    const stage = recordingStage();
    const result = await runFramePipeline(request(runner, stage, { sideFrameBytes: 2, sideToEncoder: true, warmupFrames: 2 }));
    expect(result.frames).toBe(3);
    expect(stage.log.filter((line) => line.startsWith('finish'))).toEqual(['finish 0', 'finish 1', 'finish 2']);
    expect([...Buffer.concat(runner.pictures)]).toEqual([22, 22]);
    expect([...Buffer.concat(runner.encoded)]).toEqual([2, 12]);
  });

  it('starts no encoder for a plate pass, finishing every frame and dropping its alpha', async () => {
    const runner = new FakeRunner({ decoder: decoding([frame(10), frame(11), frame(12)], [frame(20, 2), frame(21, 2), frame(22, 2)]) });
    const run = jest.spyOn(runner, 'run');
    const stage = recordingStage();
    const result = await runFramePipeline(request(runner, stage, { encodeArgs: null, sideFrameBytes: 2, sideToEncoder: true }));
    expect(result.frames).toBe(3);
    expect(stage.log.filter((line) => line.startsWith('finish'))).toEqual(['finish 0', 'finish 1', 'finish 2']);
    expect(run).toHaveBeenCalledTimes(1);
    expect(runner.encoded).toEqual([]);
  });

  it('lets the encoder take eleven pictures before its first alpha frame (libx264 at 4 fps and under), and keeps them in order', async () => {
    const count = 14;
    const frames = Array.from({ length: count }, (_, i) => frame(10 + i));
    const sides = Array.from({ length: count }, (_, i) => frame(50 + i, 2));
    const encoder: Script = async ({ stdin, inputs }) => {
      const pictures = (stdin as Readable)[Symbol.asyncIterator]();
      const taken: Buffer[] = [];
      // Eleven pictures (two bytes each) before the first alpha frame is read.
      while (Buffer.concat(taken).length < 22) taken.push((await pictures.next()).value as Buffer);
      for await (const chunk of inputs![0]!) runner.encoded.push(chunk as Buffer);
      for (let next = await pictures.next(); !next.done; next = await pictures.next()) taken.push(next.value as Buffer);
      runner.pictures.push(...taken);
    };
    const runner: FakeRunner = new FakeRunner({ decoder: decoding(frames, sides), encoder });
    const result = await runFramePipeline(request(runner, recordingStage(), { sideFrameBytes: 2, sideToEncoder: true, alphaBytes: 2, depth: 1 }));
    expect(result.frames).toBe(count);
    expect([...Buffer.concat(runner.pictures)]).toEqual(sides.flatMap((side) => [...side]));
    expect(runner.encoded.length).toBeGreaterThan(0);
  });

  it('gives the encoder no pictures when the side frames are not the picture', async () => {
    const runner = new FakeRunner({ decoder: decoding([frame(10)], [frame(20, 2)]) });
    await runFramePipeline(request(runner, recordingStage(), { sideFrameBytes: 2 }));
    expect(runner.pictures).toEqual([]);
  });

  it('gives the stage no side frame when the decoder has no second output', async () => {
    const runner = new FakeRunner({ decoder: decoding([frame(10)]) });
    const stage = recordingStage();
    await runFramePipeline(request(runner, stage));
    expect(stage.sides).toEqual([undefined]);
  });

  it("reports a stage failure when the decoder's second output ends before its first", async () => {
    const runner = new FakeRunner({ decoder: decoding([frame(10), frame(11)], [frame(20, 2)]) });
    await expect(runFramePipeline(request(runner, recordingStage(), { sideFrameBytes: 2 }))).rejects.toMatchObject({
      part: 'stage',
      message: "stage failed: the decoder's second output ended before its first",
    });
  });

  it.each([
    ['after', false],
    ['before', true],
  ])('reports a failing decoder as the cause when the encoder, starved, fails %s it', async (_order, encoderFirst) => {
    const decoderError = failedProcess('Invalid data found when processing input');
    const encoderError = failedProcess('Error while filtering: Resource temporarily unavailable');
    const runner: FakeRunner = new FakeRunner({
      decoder: async (options) => {
        if (encoderFirst) await nextTurn();
        else await decoding([frame(10)])(options);
        throw decoderError;
      },
      encoder: async (options) => {
        if (!encoderFirst) await runner.read(options).catch(() => undefined);
        throw encoderError;
      },
    });
    const failure = await runFramePipeline(request(runner, recordingStage())).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(FramePipelineFailure);
    expect(failure).toMatchObject({ part: 'decoder', reason: decoderError });
  });

  it('reports a failing encoder as the cause when the decoder got through', async () => {
    const encoderError = failedProcess('Conversion failed!');
    const runner = new FakeRunner({ decoder: decoding([frame(10), frame(11)]), encoder: () => Promise.reject(encoderError) });
    await expect(runFramePipeline(request(runner, recordingStage()))).rejects.toMatchObject({ part: 'encoder', reason: encoderError });
  });

  it('reports the encoder as the cause, instead of waiting on it, when it ends well before it took every frame (a file at its -fs limit)', async () => {
    const frames = Array.from({ length: 40 }, (_, i) => frame(i, 64 * 1024));
    // Reads nothing and exits 0, as ffmpeg does once its output reaches -fs.
    const runner = new FakeRunner({ decoder: decoding(frames), encoder: async () => undefined });
    const stage: FrameStage<number> = { start: (main) => main[0], finish: async (value) => Buffer.alloc(64 * 1024, value) };
    await expect(runFramePipeline(request(runner, stage, { frameBytes: 64 * 1024, alphaBytes: 64 * 1024 }))).rejects.toMatchObject({
      part: 'encoder',
      reason: expect.objectContaining({ name: 'ProcessFailedError', exitCode: 0, stderrTail: 'encoder done' }),
    });
  });

  it("reports the encoder's own failure, not the write it broke, when its input is reset before it exits", async () => {
    const timeout = new MediaError('timeout', 'ffmpeg ran past its 600 ms limit and was killed');
    const runner = new FakeRunner({
      decoder: decoding([frame(10), frame(11), frame(12)], [frame(20, 2), frame(21, 2), frame(22, 2)]),
      // Reads nothing, so the writes wait; then, as a killed ffmpeg's pipe:3 socket does, its input
      // is reset at once and its exit is reported after that.
      encoder: async ({ inputs }) => {
        for (let turn = 0; turn < 5; turn++) await nextTurn();
        const alphas = inputs?.[0];
        alphas?.on('error', () => undefined); // ProcessRunner's pipeline() listens
        alphas?.destroy(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
        await nextTurn();
        throw timeout;
      },
    });
    const run = runFramePipeline(request(runner, recordingStage(), { sideFrameBytes: 2, sideToEncoder: true }));
    await expect(run).rejects.toMatchObject({ part: 'encoder', reason: timeout });
  });

  it('reports a failing stage as the cause and stops the encoder', async () => {
    const modelError = new Error('model failed');
    const runner = new FakeRunner({ decoder: decoding([frame(10), frame(11), frame(12)]) });
    const stage: FrameStage<number> = { start: (main) => main[0], finish: (value) => (value === 11 ? Promise.reject(modelError) : Promise.resolve(Uint8Array.of(value, value))) };
    await expect(runFramePipeline(request(runner, stage))).rejects.toMatchObject({ part: 'stage', reason: modelError });
  });

  it('reports a failing stage, not the decoder it stopped, when the decoder was still running', async () => {
    const modelError = new Error('model worker died');
    const runner = new FakeRunner({
      decoder: async ({ stdout, signal }) => {
        [frame(10), frame(11), frame(12)].forEach((main) => (stdout as Writable).write(main));
        await killedOnAbort(signal);
      },
    });
    const stage: FrameStage<number> = { start: (main) => main[0], finish: () => Promise.reject(modelError) };
    await expect(runFramePipeline(request(runner, stage))).rejects.toMatchObject({ part: 'stage', reason: modelError });
  });

  it('stops waiting for a model run that never answers once a process fails', async () => {
    const encoderError = failedProcess('Conversion failed!');
    const runner = new FakeRunner({ decoder: decoding([frame(10), frame(11)]), encoder: () => Promise.reject(encoderError) });
    const stage: FrameStage<number> = { start: (main) => main[0], finish: () => new Promise(() => undefined) };
    await expect(runFramePipeline(request(runner, stage))).rejects.toMatchObject({ part: 'encoder', reason: encoderError });
  });

  it('starts nothing when the job is already cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const runner = new FakeRunner({ decoder: () => Promise.reject(new Error('must not start')) });
    await expect(runFramePipeline(request(runner, recordingStage(), { signal: controller.signal }))).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('stops the processes and rejects with an AbortError when the job is cancelled mid-way', async () => {
    const controller = new AbortController();
    const runner: FakeRunner = new FakeRunner({
      // A long video: the decoder is still going when the job is cancelled.
      decoder: async ({ stdout, signal }) => {
        [frame(10), frame(11), frame(12)].forEach((main) => (stdout as Writable).write(main));
        await killedOnAbort(signal);
      },
      encoder: (options) => Promise.race([runner.read(options), killedOnAbort(options.signal)]),
    });
    const stage = recordingStage();
    const cancelling: FrameStage<{ index: number; frame: Buffer }> = {
      start: (main, side) => {
        const pending = stage.start(main, side);
        if (pending.index === 1) controller.abort();
        return pending;
      },
      finish: (pending) => stage.finish(pending),
    };
    await expect(runFramePipeline(request(runner, cancelling, { signal: controller.signal }))).rejects.toBeInstanceOf(AbortError);
    expect(stage.log).not.toContain('start 2');
  });
});
