import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CLEAN_AUDIO_DEFAULTS } from '@vj/contracts';
import { cleanAudioVideo, type CleanAudioVideoRequest } from './clean-audio-video';
import { parseEbur128Summary, type LoudnessMeasurement } from './loudness';
import { lowBandEnergyPath, type LowBandEnergy } from './low-band';
import { AbortError, isAbortError, MediaError } from './media-error';
import {
  ProcessFailedError,
  type CommandRunner,
  type ProcessCommand,
  type RunOptions,
  type RunResult,
} from './process-runner';

// The job's steps against a scripted runner: which commands run, and how failures map to job codes.

const PROBE_H264 = JSON.stringify({
  format: { format_name: 'mov,mp4,m4a,3gp,3g2,mj2', duration: '2.000000' },
  streams: [
    { codec_type: 'video', codec_name: 'h264', width: 320, height: 240, avg_frame_rate: '25/1' },
    { codec_type: 'audio', codec_name: 'aac', sample_rate: '44100', channels: 2, duration: '2.000000' },
  ],
});

function summary(integratedLufs: number, truePeakDb: number): string {
  const peak = Number.isFinite(truePeakDb) ? truePeakDb.toFixed(1) : '-inf';
  return `[Parsed_ebur128_0 @ 0x1] Summary:\n\n  Integrated loudness:\n    I:  ${integratedLufs.toFixed(1)} LUFS\n\n  True peak:\n    Peak:  ${peak} dBFS\n`;
}

// What loudness-meter.mjs saves for a measurement: 400 ms of frames (energy, true peak) at the loudness.
function saveMeter(path: string, { integratedLufs, truePeakDb }: LoudnessMeasurement): void {
  const frameEnergy = integratedLufs > -70 ? 480 * 10 ** ((integratedLufs + 0.691) / 10) : 0;
  writeFileSync(path, new Float64Array(new Array<number>(40).fill(0).flatMap(() => [frameEnergy, 10 ** (truePeakDb / 20)])));
}

type Step = 'probe' | 'decode' | 'measure' | 'mux';

interface Script {
  probe?: () => Promise<string>;
  // The decoded, denoised PCM: its byte count, or a failure; `pauseMs` holds back its second half.
  decode?: () => Promise<{ bytes: number; decoderStderr?: string; pauseMs?: number }>;
  // `call` counts the denoiser's and the delivered audio's measurements, from 0 (-1: the user's file,
  // measured by its decoder).
  measure?: (input: string, call: number) => Promise<string>;
  mux?: (args: readonly string[]) => Promise<void>;
  // Whether the decode and the tap's measuring write their opening as samples for the audio offset
  // (by default they do, the tap's behind by the AAC priming: offset 0).
  offsetSamples?: boolean;
  // What the denoiser says it removed in the low band: by default as much as the input held there
  // (noise), so nothing is given back.
  lowBand?: LowBandEnergy;
}

class ScriptedRunner implements CommandRunner {
  readonly steps: Step[] = [];
  readonly muxes: (readonly string[])[] = [];
  // Every command's arguments, in order (ffprobe, then the pipe's first process...).
  readonly args: (readonly string[])[] = [];
  private measures = 0;

  constructor(private readonly script: Script) {}

  async run(command: ProcessCommand, options: RunOptions): Promise<RunResult> {
    if (options.signal?.aborted) throw new AbortError();
    this.args.push(command.args);
    if (command.file === 'ffprobe') {
      this.steps.push('probe');
      return { stdout: await (this.script.probe ?? (() => Promise.resolve(PROBE_H264)))(), stderrTail: '' };
    }
    await this.mux(command.args);
    return { stdout: '', stderrTail: '' };
  }

  async pipe(commands: readonly ProcessCommand[], options: RunOptions): Promise<RunResult[]> {
    if (commands[0].args.includes('tee')) return this.muxAndMeasure(commands);
    this.steps.push('decode');
    this.args.push(...commands.map((c) => c.args));
    expect(commands.map((c) => c.file)).toEqual(['ffmpeg', process.execPath]);
    const decoded: NonNullable<Script['decode']> = this.script.decode ?? (() => Promise.resolve({ bytes: 96_000 }));
    const { bytes, decoderStderr = '', pauseMs = 0 } = await decoded();
    // The decoder's second output measures the user's file as it is.
    const source = await (this.script.measure ?? (() => Promise.resolve(summary(-25, -10))))('/w/in.mp4', -1);
    writeLevels(commands[0]);
    if (this.script.offsetSamples !== false) writeOffsetSamples(commands[0], 0);
    async function* halves(): AsyncGenerator<Buffer> {
      yield Buffer.alloc(bytes / 2);
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
      yield Buffer.alloc(bytes - bytes / 2);
    }
    await pipeline(Readable.from(halves()), options.stdout as Writable);
    // The denoiser measures what it writes.
    this.steps.push('measure');
    const measured = await (this.script.measure ?? (() => Promise.resolve(summary(-25, -10))))('pipe:0', this.measures++);
    const denoiser = commands[1].args;
    saveMeter(denoiser[denoiser.indexOf('--measure') + 1], parseEbur128Summary(measured));
    const lowBandPath = denoiser[denoiser.indexOf('--low-band') + 1];
    writeFileSync(lowBandPath, Buffer.alloc(bytes));
    writeFileSync(lowBandEnergyPath(lowBandPath), JSON.stringify(this.script.lowBand ?? { inputEnergy: 1, removedEnergy: 1 }));
    return [
      { stdout: '', stderrTail: `${decoderStderr}\n${source}` },
      { stdout: '', stderrTail: '' },
    ];
  }

  // The mux with its tee'd audio measured by the pipe's second ffmpeg.
  private async muxAndMeasure(commands: readonly ProcessCommand[]): Promise<RunResult[]> {
    this.args.push(...commands.map((c) => c.args));
    expect(commands[1].args.join(' ')).toContain('-f aac -protocol_whitelist pipe -i pipe:0');
    const args = commands[0].args;
    expect(args[args.indexOf('tee') + 1]).toMatch(/\|\[select=a:f=adts\]pipe:1$/);
    const outputPath = await this.mux(args);
    this.steps.push('measure');
    const stderrTail = await (this.script.measure ?? (() => Promise.resolve(summary(-25, -10))))(outputPath, this.measures++);
    writeLevels(commands[1]);
    // ADTS carries the AAC encoder's 1024 priming samples (21 ms) that the MP4 skips.
    if (this.script.offsetSamples !== false) writeOffsetSamples(commands[1], 21);
    return [
      { stdout: '', stderrTail: '' },
      { stdout: '', stderrTail },
    ];
  }

  // Writes the file (the tee's first output) and both picture hashes; returns the file's path.
  private async mux(args: readonly string[]): Promise<string> {
    this.steps.push('mux');
    this.muxes.push(args);
    const [file, written] = args[args.indexOf('tee') + 1].split('|').map((slave) => slave.slice(slave.indexOf(']') + 1));
    writeFileSync(file, 'partly muxed');
    for (const hashFile of [written, args[args.length - 1]]) writeFileSync(hashFile, `0,v,SHA256=${'c'.repeat(64)}\n`);
    await this.script.mux?.(args);
    return file;
  }
}

// The opening a decoding run writes as samples for the audio offset (its last output): 2 s of the
// same noise, `delayMs` late.
const NOISE = Float32Array.from({ length: 2000 }, (_, i) => Math.sin(i * i * 0.618));
function writeOffsetSamples(command: ProcessCommand, delayMs: number): void {
  const samples = Float32Array.from(NOISE, (_, i) => NOISE[i - delayMs] ?? 0);
  writeFileSync(command.args.at(-1)!, Buffer.from(samples.buffer));
}

// The levels a measuring run writes for the noise floor, in its folder: a floor of -52.5 dBFS.
function writeLevels(command: ProcessCommand): void {
  const filter = command.args.find((arg) => arg.startsWith('ebur128='))!;
  writeFileSync(join(command.cwd!, /file=([\w.-]+)$/.exec(filter)![1]), 'lavfi.astats.Overall.RMS_level=-52.5\n');
}

describe('cleanAudioVideo', () => {
  let workDir: string;
  beforeEach(() => (workDir = mkdtempSync(join(tmpdir(), 'vj-clean-'))));
  afterEach(() => rmSync(workDir, { recursive: true, force: true }));

  function request(runner: CommandRunner, overrides: Partial<CleanAudioVideoRequest> = {}): CleanAudioVideoRequest {
    return { inputPath: '/w/in.mp4', workDir, options: CLEAN_AUDIO_DEFAULTS, timeoutMs: 60_000, runner, ...overrides };
  }

  async function failureOf(runner: CommandRunner, overrides: Partial<CleanAudioVideoRequest> = {}): Promise<unknown> {
    return cleanAudioVideo(request(runner, overrides)).then(
      () => {
        throw new Error('expected the job to fail');
      },
      (error: unknown) => error,
    );
  }

  it('probes, denoises, measures, muxes with the loudness gain and checks the delivered file', async () => {
    const runner = new ScriptedRunner({ measure: (_input, call) => Promise.resolve(call === 0 ? summary(-25, -10) : summary(-19.1, -4)) });
    const result = await cleanAudioVideo(request(runner));
    expect(runner.steps).toEqual(['probe', 'decode', 'measure', 'mux', 'measure']);
    expect(result).toEqual({
      outputPath: join(workDir, 'clean-audio.mp4'),
      contentType: 'video/mp4',
      fileExtension: 'mp4',
      durationSeconds: 2,
      measuredLufs: -19.1,
      // Decision 0096: the user's file measured beside the encode, the delivered audio by its tap.
      quality: {
        input: { integratedLufs: -19.1, truePeakDb: -4, noiseFloorDb: -52.5 },
        output: { integratedLufs: -19.1, truePeakDb: -4, noiseFloorDb: -52.5 },
        // Decision 0098: the tap against the source's decode, less the AAC priming.
        audioOffsetMs: 0,
        picture: { sourceSha256: 'c'.repeat(64), writtenSha256: 'c'.repeat(64) },
      },
    });
    expect(runner.muxes[0]).toContain('volume=6.00dB');
    // Only the result is left in the work folder.
    expect(readdirSync(workDir)).toEqual(['clean-audio.mp4']);
  });

  it('reads a null offset and still delivers where no samples were written: a report never fails a job', async () => {
    const runner = new ScriptedRunner({ offsetSamples: false });
    const result = await cleanAudioVideo(request(runner));
    expect(result.quality.audioOffsetMs).toBeNull();
    expect(readdirSync(workDir)).toEqual(['clean-audio.mp4']);
  });

  it('gives back the low band the denoiser removed where the file shows it held no noise, and removes its files', async () => {
    // 1/100 of the input's low band removed (-20 dB): speech alone, all of it given back.
    const runner = new ScriptedRunner({ lowBand: { inputEnergy: 100, removedEnergy: 1 } });
    await cleanAudioVideo(request(runner));
    const lowBandPath = join(workDir, 'denoised-low-band.s16le');
    expect(runner.muxes[0].slice(runner.muxes[0].indexOf(lowBandPath) - 1, runner.muxes[0].indexOf(lowBandPath) + 1)).toEqual(['-i', lowBandPath]);
    expect(runner.muxes[0]).toContain('[1:a][2:a]amix=inputs=2:weights=1 1:normalize=0,volume=6.00dB[audio]');
    expect(readdirSync(workDir)).toEqual(['clean-audio.mp4']);
  });

  it('reports the denoising share of progress from the denoised bytes written so far', async () => {
    // 2 s of audio: 192,000 bytes expected; half of them written, then a pause of two ticks or more.
    const runner = new ScriptedRunner({ decode: () => Promise.resolve({ bytes: 96_000, pauseMs: 1_200 }) });
    const progress: number[] = [];
    await cleanAudioVideo(request(runner, { onProgress: (fraction) => progress.push(fraction) }));
    // 0.8 x 48,000 / 192,000 while paused (0.4 after it, on a machine that delays the timer).
    expect(progress.some((fraction) => fraction > 0 && fraction < 0.8)).toBe(true);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(0.9);
  });

  it("opens the user's file fenced in every run that reads it: probe, decode (which measures it too) and mux", async () => {
    const runner = new ScriptedRunner({
      measure: (input) => Promise.resolve(input === '/w/in.mp4' ? summary(-22, -6) : input === 'pipe:0' ? summary(-25, -10) : summary(-22, -7)),
    });
    await cleanAudioVideo(request(runner, { options: { ...CLEAN_AUDIO_DEFAULTS, normalize_loudness: false } }));
    expect(runner.steps).toEqual(['probe', 'decode', 'measure', 'mux', 'measure']);
    const readers = runner.args.filter((args) => args.includes('/w/in.mp4'));
    expect(readers).toHaveLength(3);
    for (const args of readers) {
      const i = args.indexOf('/w/in.mp4');
      expect(args.slice(i - 7, i + 1)).toEqual([
        '-protocol_whitelist', 'file', '-format_whitelist', 'mov,matroska,avi,flv,mpegts,mpeg,asf,ogg,mxf', '-max_pixels', '36458496', '-i', '/w/in.mp4',
      ]);
    }
  });

  it('fails with invalid_file, running nothing after the probe, when the fence refuses the container', async () => {
    const stderr = "[hls @ 0x556cec79da80] Format not on whitelist 'mov,matroska,avi,flv,mpegts,mpeg,asf,ogg,mxf'\n/w/in.mp4: Invalid argument\n";
    const runner = new ScriptedRunner({ probe: () => Promise.reject(new ProcessFailedError('ffprobe', 1, null, stderr)) });
    expect(await failureOf(runner)).toMatchObject({
      code: 'invalid_file',
      message: 'The container is not an accepted video format',
      details: [{ type: 'unsupported_container' }],
    });
    expect(runner.steps).toEqual(['probe']);
  });

  it('fails with invalid_file, a still image, when the video stream holds a single frame, running nothing else', async () => {
    const still = JSON.parse(PROBE_H264) as { streams: Record<string, unknown>[] };
    still.streams[0].nb_frames = '1';
    const runner = new ScriptedRunner({ probe: () => Promise.resolve(JSON.stringify(still)) });
    expect(await failureOf(runner)).toMatchObject({ code: 'invalid_file', message: 'The file is a still image, not a video', details: [{ type: 'still_image' }] });
    expect(runner.steps).toEqual(['probe']);
  });

  it('fails with input_validation when the picture is larger than any decoder here reads, running nothing else', async () => {
    const huge = JSON.parse(PROBE_H264) as { streams: Record<string, unknown>[] };
    Object.assign(huge.streams[0], { width: 16384, height: 8192 });
    const runner = new ScriptedRunner({ probe: () => Promise.resolve(JSON.stringify(huge)) });
    expect(await failureOf(runner)).toMatchObject({ code: 'input_validation', details: [{ type: 'video_too_large', field: 'video_url' }] });
    expect(runner.steps).toEqual(['probe']);
  });

  it("targets the input's own loudness when normalize_loudness is false", async () => {
    const runner = new ScriptedRunner({
      measure: (input) => Promise.resolve(input === '/w/in.mp4' ? summary(-22, -6) : input === 'pipe:0' ? summary(-25, -10) : summary(-22, -7)),
    });
    const result = await cleanAudioVideo(request(runner, { options: { ...CLEAN_AUDIO_DEFAULTS, normalize_loudness: false } }));
    expect(runner.steps).toEqual(['probe', 'decode', 'measure', 'mux', 'measure']);
    expect(runner.muxes[0]).toContain('volume=3.00dB');
    expect(result.measuredLufs).toBe(-22);
  });

  it('completes, its report leaving out what the decoder did not measure, when the source prints no loudness summary', async () => {
    const runner = new ScriptedRunner({ measure: (input) => Promise.resolve(input === '/w/in.mp4' ? '' : summary(-25, -10)) });
    const result = await cleanAudioVideo(request(runner));
    expect(result.quality.input).toEqual({ integratedLufs: null, truePeakDb: null, noiseFloorDb: -52.5 });
    expect(result.quality.output.integratedLufs).toBe(-25);
  });

  it('leaves silent audio as it is', async () => {
    const runner = new ScriptedRunner({ measure: () => Promise.resolve(summary(-70, -Infinity)) });
    const result = await cleanAudioVideo(request(runner));
    expect(runner.steps).toEqual(['probe', 'decode', 'measure', 'mux']);
    expect(runner.muxes[0]).not.toContain('-af');
    expect(result.measuredLufs).toBeUndefined();
  });

  it('encodes again with a lower ceiling when the delivered true peak is above -1 dBTP', async () => {
    const delivered = [summary(-19, 0.2), summary(-19.2, -1.6)];
    const runner = new ScriptedRunner({
      measure: (_input, call) => Promise.resolve(call <= 0 ? summary(-21, -3) : delivered[call - 1]),
    });
    const result = await cleanAudioVideo(request(runner));
    expect(runner.steps).toEqual(['probe', 'decode', 'measure', 'mux', 'measure', 'mux', 'measure']);
    expect(runner.muxes[0]).toContain('volume=2.00dB,alimiter=limit=0.7943:attack=1:release=20:level=false:latency=true');
    expect(runner.muxes[1]).toContain('volume=2.00dB,alimiter=limit=0.6683:attack=1:release=20:level=false:latency=true');
    expect(result.measuredLufs).toBe(-19.2);
  });

  it('trims the gain after the limiter when the peak is still over -1 dBTP after the loudness attempts', async () => {
    const delivered = [summary(-19, 0.2), summary(-19.8, -1.6), summary(-19.2, -0.4), summary(-20.1, -1.5)];
    const runner = new ScriptedRunner({
      measure: (_input, call) => Promise.resolve(call <= 0 ? summary(-21, -3) : delivered[call - 1]),
    });
    const result = await cleanAudioVideo(request(runner));
    expect(runner.steps).toEqual(['probe', 'decode', 'measure', ...Array<Step[]>(4).fill(['mux', 'measure']).flat()]);
    expect(runner.muxes[2]).toContain('volume=2.80dB,alimiter=limit=0.6683:attack=1:release=20:level=false:latency=true');
    // The last planned encode peaked 0.6 dB over: scaled down by that plus a 0.5 dB margin.
    expect(runner.muxes[3]).toContain('volume=2.80dB,alimiter=limit=0.6683:attack=1:release=20:level=false:latency=true,volume=-1.10dB');
    expect(result.measuredLufs).toBe(-20.1);
  });

  it('holds the peak limit when normalize_loudness is false, where the target is the hot input itself', async () => {
    const runner = new ScriptedRunner({
      measure: (input, call) =>
        Promise.resolve(
          input === '/w/in.mp4' ? summary(-9, 2.2) : input.endsWith('.s16le') ? summary(-10, 1) : call < 4 ? summary(-9.2, -0.8) : summary(-10.5, -1.7),
        ),
    });
    const result = await cleanAudioVideo(request(runner, { options: { ...CLEAN_AUDIO_DEFAULTS, normalize_loudness: false } }));
    expect(runner.steps.filter((step) => step === 'mux')).toHaveLength(4);
    // Scaled down by the 0.2 dB overshoot plus a 0.5 dB margin.
    expect(runner.muxes[3].find((arg) => arg.startsWith('volume='))).toMatch(/,volume=-0\.70dB$/);
    expect(result.measuredLufs).toBe(-10.5);
  });

  it('fails with generation_failed, leaving no file, when the peak stays over -1 dBTP', async () => {
    const runner = new ScriptedRunner({
      measure: (_input, call) => Promise.resolve(call === 0 ? summary(-21, -3) : summary(-19, -0.5)),
    });
    const error = await failureOf(runner);
    expect(error).toBeInstanceOf(MediaError);
    expect(error).toMatchObject({ code: 'generation_failed', message: expect.stringMatching(/-0\.5 dBTP after 6 encodes/) });
    expect(runner.steps.filter((step) => step === 'mux')).toHaveLength(6);
    expect(readdirSync(workDir)).toEqual([]);
  });

  it('fails with audio_too_long from the probed duration without decoding', async () => {
    const runner = new ScriptedRunner({});
    const error = await failureOf(runner, { maxAudioSeconds: 1 });
    expect(error).toMatchObject({ code: 'audio_too_long', details: [{ type: 'audio_too_long' }] });
    expect(runner.steps).toEqual(['probe']);
  });

  it('fails with audio_too_long when the decoded audio is longer than the metadata said', async () => {
    const runner = new ScriptedRunner({ decode: () => Promise.resolve({ bytes: 96_000 * 3 }) });
    expect(await failureOf(runner, { maxAudioSeconds: 2.5 })).toMatchObject({ code: 'audio_too_long' });
  });

  it('fails with invalid_file when ffprobe cannot read the file', async () => {
    const runner = new ScriptedRunner({
      probe: () => Promise.reject(new ProcessFailedError('ffprobe', 1, null, '/w/in.mp4: Invalid data found when processing input')),
    });
    expect(await failureOf(runner)).toMatchObject({ code: 'invalid_file', details: [{ type: 'unreadable_file' }] });
  });

  it('fails with invalid_file when the file has no audio stream', async () => {
    const noAudio = JSON.parse(PROBE_H264) as { streams: unknown[] };
    noAudio.streams.pop();
    const runner = new ScriptedRunner({ probe: () => Promise.resolve(JSON.stringify(noAudio)) });
    expect(await failureOf(runner)).toMatchObject({ code: 'invalid_file', details: [{ type: 'no_audio_stream' }] });
  });

  it('fails with invalid_file when the decoder fails on the input', async () => {
    const stderr = '[aac @ 0x1] Error decoding AAC frame header.\nError while decoding stream #0:1: Invalid data found when processing input\n';
    // The decoder is the pipe's first process.
    const runner = new ScriptedRunner({ decode: () => Promise.reject(new ProcessFailedError('ffmpeg', 1, null, stderr, 0)) });
    expect(await failureOf(runner)).toMatchObject({ code: 'invalid_file', details: [{ type: 'undecodable_audio' }] });
  });

  it('fails with invalid_file when the demuxer reports a truncated file, even though ffmpeg succeeded', async () => {
    const decoderStderr = '[mov,mp4,m4a,3gp,3g2,mj2 @ 0x55cd4a5e2940] stream 1, offset 0x18afc: partial file\n';
    const runner = new ScriptedRunner({ decode: () => Promise.resolve({ bytes: 96_000, decoderStderr }) });
    expect(await failureOf(runner)).toMatchObject({
      code: 'invalid_file',
      details: [{ type: 'damaged_file', message: 'stream 1, offset 0x18afc: partial file' }],
    });
  });

  it('fails with invalid_file when the audio stream decodes to nothing', async () => {
    const runner = new ScriptedRunner({ decode: () => Promise.resolve({ bytes: 0 }) });
    expect(await failureOf(runner)).toMatchObject({ code: 'invalid_file', details: [{ type: 'undecodable_audio' }] });
  });

  it("lets a failure of the pipe's measuring ffmpeg through, to be retried: it reads only our own audio", async () => {
    const ours = new ProcessFailedError('ffmpeg', 1, null, 'Error while filtering: Cannot allocate memory', 2);
    const runner = new ScriptedRunner({ decode: () => Promise.reject(ours) });
    expect(await failureOf(runner)).toBe(ours);
  });

  it('lets a denoiser failure through as it is, to be retried: that is ours', async () => {
    const crash = new ProcessFailedError(process.execPath, 1, null, 'TypeError: x is not a function', 1);
    const runner = new ScriptedRunner({ decode: () => Promise.reject(crash) });
    expect(await failureOf(runner)).toBe(crash);
  });

  it('fails with invalid_file when muxing hits damaged video data, and lets other mux failures through to be retried', async () => {
    const damaged = new ScriptedRunner({
      // The mux runs first in a pipe with the ffmpeg measuring its audio.
      mux: () => Promise.reject(new ProcessFailedError('ffmpeg', 1, null, '[h264 @ 0x1] Invalid NAL unit size\n/w/in.mp4: corrupt input packet in stream 0\n', 0)),
    });
    expect(await failureOf(damaged)).toMatchObject({ code: 'invalid_file', details: [{ type: 'damaged_file' }] });
    const oursError = new ProcessFailedError('ffmpeg', 1, null, "Unrecognized option 'movflag'.\n", 0);
    const ours = new ScriptedRunner({ mux: () => Promise.reject(oursError) });
    expect(await failureOf(ours)).toBe(oursError);
  });

  it('lets an unexpected error through as it is, to be retried', async () => {
    const bug = new TypeError('cannot read properties of undefined');
    const runner = new ScriptedRunner({ measure: () => Promise.reject(bug) });
    expect(await failureOf(runner)).toBe(bug);
  });

  it('lets a timeout from the runner through as timeout', async () => {
    const runner = new ScriptedRunner({ decode: () => Promise.reject(new MediaError('timeout', 'ffmpeg ran past its limit')) });
    expect(await failureOf(runner)).toMatchObject({ code: 'timeout' });
  });

  it('fails with timeout when the time limit is spent between steps', async () => {
    // The probe outlasts the whole budget; the budget leaves room for the set-up before it on a busy machine.
    const runner = new ScriptedRunner({ probe: () => new Promise((resolve) => setTimeout(() => resolve(PROBE_H264), 600)) });
    expect(await failureOf(runner, { timeoutMs: 500 })).toMatchObject({ code: 'timeout' });
    expect(runner.steps).toEqual(['probe']);
  });

  it('propagates cancellation as an AbortError and leaves no partial output', async () => {
    const controller = new AbortController();
    const runner = new ScriptedRunner({
      mux: () => {
        controller.abort();
        return Promise.reject(new AbortError());
      },
    });
    const error = await failureOf(runner, { signal: controller.signal });
    expect(isAbortError(error)).toBe(true);
    expect(existsSync(join(workDir, 'clean-audio.mp4'))).toBe(false);
    expect(readdirSync(workDir)).toEqual([]);
  });

  it('does not start when the signal has already fired', async () => {
    const runner = new ScriptedRunner({});
    const error = await failureOf(runner, { signal: AbortSignal.abort() });
    expect(isAbortError(error)).toBe(true);
    expect(runner.steps).toEqual([]);
  });
});
