import { DoubtfulMediaError } from '../media/media-error';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AbortError } from '../media';
import { ProcessFailedError, type CommandRunner, type ProcessCommand, type RunOptions, type RunResult } from '../media/process-runner';
import type { MattingModelSpec, Segmenter } from './matting-model';
import { removeBackground, type RemoveBackgroundRequest } from './remove-background';

// The job's failure rules against scripted processes: which failures of the decoder are the input's
// (a job error, never retried) and which are ours. A 320x240 input, the model at 256x144.

const SPEC: MattingModelSpec = { name: 'fake', path: '/models/fake.onnx', width: 256, height: 144, layout: 'nhwc', mean: [0, 0, 0], std: [1, 1, 1], output: 'probability' };
const SEGMENTER: Segmenter = { spec: SPEC, segment: () => Promise.resolve(new Float32Array(256 * 144)) };
const FRAME_BYTES = 256 * 144 * 3;
// The picture, also the crop source of tracking: 320x240 as yuv420p.
const PICTURE_BYTES = (320 * 240 * 3) / 2;
const INPUT = '/w/jobs/1/input';

const probeJson = (video: Record<string, unknown> = {}, withSound = false) =>
  JSON.stringify({
    format: { format_name: 'mov,mp4,m4a,3gp,3g2,mj2', duration: '2.000000' },
    streams: [
      { codec_type: 'video', codec_name: 'h264', width: 320, height: 240, avg_frame_rate: '25/1', nb_frames: '50', duration: '2.000000', ...video },
      ...(withSound ? [{ codec_type: 'audio', codec_name: 'aac', sample_rate: '48000', channels: 2, duration: '2.000000' }] : []),
    ],
  });

// What the decoder does: how many frames it writes, then how it ends.
interface DecoderScript {
  frames: number;
  stderrTail?: string;
  failure?: Error;
}

class ScriptedRunner implements CommandRunner {
  readonly commands: ProcessCommand[] = [];

  constructor(
    private readonly decoder: DecoderScript,
    private readonly probe = probeJson(),
  ) {}

  async run(command: ProcessCommand, options: RunOptions): Promise<RunResult> {
    this.commands.push(command);
    if (command.file === 'ffprobe') return { stdout: this.probe, stderrTail: '' };
    if (command.args.includes('[model]')) {
      const write = (to: Writable, bytes: number) => pipeline(Readable.from(Array.from({ length: this.decoder.frames }, () => Buffer.alloc(bytes))), to);
      await Promise.all([write(options.stdout as Writable, FRAME_BYTES), ...(options.outputs ?? []).map((picture) => write(picture, PICTURE_BYTES))]);
      if (this.decoder.failure) throw this.decoder.failure;
      return { stdout: '', stderrTail: this.decoder.stderrTail ?? '' };
    }
    // The encoder reads every picture and alpha frame, and is killed when the pipeline stops.
    const readToEnd = (input: Readable | undefined) => new Promise((resolve) => input?.on('data', () => undefined).on('end', resolve));
    return new Promise((resolve, reject) => {
      options.signal?.addEventListener('abort', () => reject(new AbortError('ffmpeg stopped: cancelled')), { once: true });
      void Promise.all([options.stdin, ...(options.inputs ?? [])].map(readToEnd)).then(() => resolve({ stdout: '', stderrTail: '' }));
    });
  }

  pipe(): Promise<RunResult[]> {
    return Promise.reject(new Error('not used'));
  }
}

describe('removeBackground', () => {
  let workDir: string;
  beforeEach(() => (workDir = mkdtempSync(join(tmpdir(), 'vj-matting-unit-'))));
  afterEach(() => rmSync(workDir, { recursive: true, force: true }));

  function run(runner: CommandRunner): Promise<unknown> {
    const request: RemoveBackgroundRequest = {
      inputPath: INPUT,
      workDir,
      options: { output_codec: 'vp9', refine_foreground_edges: false },
      segmenters: [SEGMENTER],
      maxSeconds: 60,
      timeoutMs: 10_000,
      runner,
    };
    return removeBackground(request).then(
      () => {
        throw new Error('expected the job to fail');
      },
      (error: unknown) => error,
    );
  }

  it("opens the user's file in the decoder and, for its sound, the encoder fenced, held to 4096x2304 (padded for alignment)", async () => {
    const runner = new ScriptedRunner({ frames: 1 }, probeJson({}, true));
    await run(runner);
    const [decoder, encoder] = runner.commands.slice(1);
    for (const { args } of [decoder, encoder]) {
      const i = args.indexOf(INPUT);
      expect(args.slice(i - 7, i + 1)).toEqual([
        '-protocol_whitelist', 'file', '-format_whitelist', 'mov,matroska,avi,flv,mpegts,mpeg,asf,ogg,mxf', '-max_pixels', '9850880', '-i', INPUT,
      ]);
    }
    for (const pipe of ['pipe:0', 'pipe:3']) expect(encoder.args.slice(encoder.args.indexOf(pipe) - 3, encoder.args.indexOf(pipe) + 1)).toEqual(['-protocol_whitelist', 'pipe', '-i', pipe]);
  });

  it('fails with input_validation from the probe, decoding nothing, when the picture is over 4096 a side or 4096x2304 in all', async () => {
    for (const [width, height] of [[4112, 2304], [4096, 4096], [16, 4112]]) {
      const runner = new ScriptedRunner({ frames: 50 }, probeJson({ width, height }));
      expect(await run(runner)).toMatchObject({ code: 'input_validation', details: [{ type: 'video_too_large', field: 'video_url' }] });
      expect(runner.commands.map((command) => command.file)).toEqual(['ffprobe']);
    }
  });

  it('fails with a doubtful invalid_file when the decoder is killed for memory (SIGKILL: our own kills never reach here)', async () => {
    const runner = new ScriptedRunner({ frames: 3, failure: new ProcessFailedError('ffmpeg', null, 'SIGKILL', '') });
    const failure = await run(runner);
    // Retried first: the killer may have chosen this decoder for another job's memory.
    expect(failure).toBeInstanceOf(DoubtfulMediaError);
    expect(failure).toMatchObject({ code: 'invalid_file', details: [{ type: 'out_of_memory' }] });
  });

  it('fails with invalid_file when the decoder cannot allocate memory for a picture', async () => {
    const stderr = 'Failed to inject frame into filter network: Cannot allocate memory\nError while processing the decoded data for stream #0:0\n';
    const runner = new ScriptedRunner({ frames: 3, failure: new ProcessFailedError('ffmpeg', 1, null, stderr) });
    expect(await run(runner)).toMatchObject({ code: 'invalid_file', details: [{ type: 'out_of_memory', message: 'Failed to inject frame into filter network: Cannot allocate memory' }] });
  });

  it('fails with input_validation when the decoder dropped pictures over -max_pixels, though it exited cleanly: the header lied', async () => {
    const stderrTail = '[h264 @ 0x562b] [IMGUTILS @ 0x7f48] Picture size 4160x2304 exceeds specified max pixel count 9850880, see the documentation if you wish to increase it\n';
    const runner = new ScriptedRunner({ frames: 10, stderrTail });
    expect(await run(runner)).toMatchObject({ code: 'input_validation', details: [{ type: 'video_too_large', field: 'video_url' }] });
  });

  it('fails with invalid_file, a still image, when the decoder produces a single frame the probe could not count', async () => {
    const runner = new ScriptedRunner({ frames: 1 }, probeJson({ nb_frames: undefined, duration: undefined }));
    expect(await run(runner)).toMatchObject({ code: 'invalid_file', message: 'The file is a still image, not a video', details: [{ type: 'still_image' }] });
  });

  it('fails with invalid_file, a still image, from the probe when the stream holds one frame', async () => {
    const runner = new ScriptedRunner({ frames: 1 }, probeJson({ nb_frames: '1', duration: '0.040000' }));
    expect(await run(runner)).toMatchObject({ code: 'invalid_file', details: [{ type: 'still_image' }] });
    expect(runner.commands).toHaveLength(1);
  });

  it('makes a decoder crash on another signal a doubtful invalid_file: retried, the input blamed only if it crashes again', async () => {
    const crash = new ProcessFailedError('ffmpeg', null, 'SIGSEGV', '');
    const failure = await run(new ScriptedRunner({ frames: 2, failure: crash }));
    expect(failure).toBeInstanceOf(DoubtfulMediaError);
    expect(failure).toMatchObject({ code: 'invalid_file', details: [{ type: 'decoder_crashed' }] });
  });
});
