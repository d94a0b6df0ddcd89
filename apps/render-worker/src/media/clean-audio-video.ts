import { createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import { join } from 'node:path';
import type { CleanAudioVideoOptions } from '@vj/contracts';
import {
  decodeAudioArgs,
  decodeStemsArgs,
  INPUT_LEVELS,
  keepStemsArgs,
  measureLoudnessArgs,
  muxArgs,
  OUTPUT_LEVELS,
  PCM_BYTES_PER_SECOND,
  PCM_SAMPLE_RATE,
  tapInput,
  type MuxPlan,
} from './clean-audio-args';
import { readAudioOffsetMs } from './audio-offset';
import { denoiseCommand, remixCommand } from './denoise-command';
import { readDenoisedLoudness } from './denoised-loudness';
import { denoiseInParts, type PartsMeasurement } from './denoise-in-parts';
import { denoiseParts, MIN_PART_SECONDS } from './denoise-parts';
import { lowBandWeight, readLowBandEnergy, removeLowBand, type LowBandEnergy } from './low-band';
import { Deadline } from './deadline';
import { damagedInputError, damageIn, forUser, truncationIn } from './input-damage';
import { MAX_DECODED_PICTURE } from './input-fence';
import { refusalIn } from './input-refusal';
import {
  firstLoudnessPlan,
  loudnessFilter,
  nextLoudnessPlan,
  overPeakLimit,
  parseEbur128Summary,
  peakCorrection,
  TRUE_PEAK_LIMIT_DB,
  type LoudnessMeasurement,
  type LoudnessPlan,
} from './loudness';
import { MediaError } from './media-error';
import { readNoiseFloor } from './noise-floor';
import { readPictureHash } from './picture-hash';
import { openJobInput } from './open-job-input';
import type { MediaProbe } from './parse-probe';
import { outputFormatFor, type OutputFormat } from './output-format';
import { lastLine, ProcessFailedError, ProcessRunner, type CommandRunner, type ProcessCommand } from './process-runner';

export interface CleanAudioVideoRequest {
  inputPath: string;
  // Every file the job writes goes here; the caller owns the folder and removes it.
  workDir: string;
  // The worker's probe of this input, taken when it was measured: not run again.
  probe?: MediaProbe;
  options: CleanAudioVideoOptions;
  // The job's time limit, shared by all of its processes.
  timeoutMs: number;
  maxAudioSeconds?: number;
  signal?: AbortSignal;
  ffmpegPath?: string;
  ffprobePath?: string;
  // Runs the denoiser script.
  nodePath?: string;
  // Denoisers one job may run at once on long audio (one core each); 1 streams the audio through one.
  denoisers?: number;
  runner?: CommandRunner;
  // How much of the work is done, 0 to 1: denoising is most of it, the loudness passes the rest.
  onProgress?: (fraction: number) => void;
  // Keeps the denoiser's stems as a FLAC at this path, for exports (decision 0093).
  keepStemsAt?: string;
  // An export: the audio is remixed from a job's kept stems instead of denoised, and inputPath is that
  // job's delivered video (its picture is the source's, bit for bit).
  fromStems?: KeptStems;
}

// A job's kept stems (rnnoise-filter.mjs --stems, as FLAC) and what remixing them needs besides.
export interface KeptStems {
  path: string;
  lowBandEnergy: LowBandEnergy;
  // The source's own audio as measured: normalize_loudness false keeps its loudness, and an export's
  // quality report shows it as the input's.
  input: AudioFigures;
}

// An audio stream as the quality report shows it (decision 0096); null where silence leaves nothing
// to measure.
export interface AudioFigures {
  integratedLufs: number | null;
  truePeakDb: number | null;
  noiseFloorDb: number | null;
}

// What the job measured of its own work (decision 0096): the audio before and after, the delivered
// audio's offset against the source's in ms (null where it cannot be told, decision 0098), and the
// SHA-256 of the source's picture packets and of those written into the delivered file.
export interface CleanAudioQuality {
  input: AudioFigures;
  output: AudioFigures;
  audioOffsetMs: number | null;
  picture: { sourceSha256: string; writtenSha256: string };
}

export interface CleanedVideo {
  outputPath: string;
  contentType: 'video/mp4' | 'video/webm';
  fileExtension: 'mp4' | 'webm';
  durationSeconds: number;
  // Integrated loudness of the delivered audio, measured after encoding; absent for silence.
  measuredLufs?: number;
  // With keepStemsAt.
  stems?: KeptStems;
  quality: CleanAudioQuality;
}

export const DEFAULT_MAX_AUDIO_SECONDS = 1800;
// Denoising's share of the job's work (the loudness passes and the mux are the rest), and how often
// its progress is read from the bytes it has written.
const DENOISE_SHARE = 0.8;
const PROGRESS_TICK_MS = 500;
// Encodes tried before the delivered loudness is accepted as it is (see loudness.ts).
const LOUDNESS_ATTEMPTS = 3;
// Hard bound on all encodes, the peak-only corrections after the loudness attempts included: a
// file over the true-peak limit is never delivered, the job fails instead.
const MAX_ENCODES = LOUDNESS_ATTEMPTS + 3;

// Replaces the first audio stream of a video with a denoised (and loudness-normalised) 48 kHz
// mono track and copies the picture unchanged (docs/spec/api-v1.md, clean-audio-video). Fails with a
// MediaError carrying the job error code when the input is at fault or a limit is passed, an
// AbortError when the signal fires, and any other error when the failure is ours: that one is
// retried, and reported generation_failed after the last attempt (docs/spec/api-v1.md: "after retries").
export async function cleanAudioVideo(request: CleanAudioVideoRequest): Promise<CleanedVideo> {
  const job = new CleanAudioJob(request);
  try {
    return await job.run();
  } catch (error) {
    await rm(job.outputPath, { force: true }); // never leave a partial result to be uploaded
    throw error;
  } finally {
    await Promise.all([rm(job.rawPath, { force: true }), removeLowBand(job.lowBandPath), rm(job.stemsRawPath, { force: true }), ...job.measuresPaths.map((path) => rm(path, { force: true }))]);
  }
}

// A denoising of the user's file, with the source's figures its decoder measured.
type DecodedAndDenoised = PartsMeasurement & { input: AudioFigures };

interface Denoised {
  seconds: number;
  // The source's audio, as its decoding measured it (or, for an export, as its source job kept it).
  input: AudioFigures;
  measured: LoudnessMeasurement;
  // What the denoiser took from the low band, with the weight it is given back with; null for none.
  lowBand: MuxPlan['lowBand'];
  // Its energies, all parts together (kept with the stems).
  lowBandEnergy: LowBandEnergy;
}

class CleanAudioJob {
  readonly rawPath: string;
  readonly lowBandPath: string;
  readonly stemsRawPath: string;
  readonly pictureHashPaths: MuxPlan['pictureHashes'];
  // Where the source's decode and the tap's measuring write their opening as samples (audio-offset.ts).
  readonly offsetSamplesPaths: { source: string; delivered: string };
  outputPath: string;
  private readonly runner: CommandRunner;
  private readonly ffmpegPath: string;
  private readonly maxAudioSeconds: number;
  private readonly deadline: Deadline;
  // Stops keeping the stems when the encode fails: the job fails, the stems are not needed.
  private readonly stopKeeping = new AbortController();

  constructor(private readonly request: CleanAudioVideoRequest) {
    this.runner = request.runner ?? new ProcessRunner();
    this.ffmpegPath = request.ffmpegPath ?? 'ffmpeg';
    this.maxAudioSeconds = request.maxAudioSeconds ?? DEFAULT_MAX_AUDIO_SECONDS;
    this.deadline = new Deadline(request.timeoutMs, 'Cleaning the audio');
    this.rawPath = join(request.workDir, 'denoised.s16le');
    this.lowBandPath = join(request.workDir, 'denoised-low-band.s16le');
    this.stemsRawPath = join(request.workDir, 'stems.s16le');
    this.outputPath = join(request.workDir, 'clean-audio.out'); // named for its format once probed
    this.pictureHashPaths = { source: join(request.workDir, 'source-picture.sha256'), written: join(request.workDir, 'written-picture.sha256') };
    this.offsetSamplesPaths = { source: join(request.workDir, 'offset-source.f32'), delivered: join(request.workDir, 'offset-delivered.f32') };
  }

  // What the measuring runs write besides the result (decision 0096).
  get measuresPaths(): string[] {
    const { workDir } = this.request;
    const { pictureHashPaths, offsetSamplesPaths } = this;
    return [join(workDir, INPUT_LEVELS), join(workDir, OUTPUT_LEVELS), pictureHashPaths.source, pictureHashPaths.written, offsetSamplesPaths.source, offsetSamplesPaths.delivered];
  }

  async run(): Promise<CleanedVideo> {
    const { request } = this;
    const probe = await openJobInput(this.runner, request, this.deadline);
    const format = outputFormatFor(probe);
    this.checkAudioLength(probe.audio?.durationSeconds ?? probe.durationSeconds ?? 0);
    const probedSeconds = probe.audio?.durationSeconds ?? probe.durationSeconds ?? 0;
    const { seconds: audioSeconds, input, measured, lowBand, lowBandEnergy } = request.fromStems ? await this.remix(request.fromStems) : await this.denoise(probedSeconds);
    request.onProgress?.(DENOISE_SHARE);
    // "false keeps the input loudness" (docs/spec/api-v1.md): then the input's own loudness is the target,
    // which makes up for the level the mono downmix takes off stereo (3 LU for centred sound). An
    // export's input is a delivered file: its source was measured and kept with the stems.
    // Silence (no block over the gate) keeps its level: no gain is aimed at.
    const targetLufs = request.options.normalize_loudness ? request.options.target_lufs : (input.integratedLufs ?? -Infinity);
    request.onProgress?.(DENOISE_SHARE + (1 - DENOISE_SHARE) / 2);
    this.outputPath = join(request.workDir, `clean-audio.${format.fileExtension}`);
    // Kept on the other core while the encodes run: they are mostly one ffmpeg at a time.
    const keeping = request.keepStemsAt === undefined ? Promise.resolve(undefined) : this.keepStems(request.keepStemsAt, lowBandEnergy, input);
    const encoding = this.encode(
      {
        inputPath: request.inputPath,
        rawAudioPath: this.rawPath,
        lowBand,
        outputPath: this.outputPath,
        format,
        audioFilter: null,
        language: probe.audio?.language ?? null,
        pictureHashes: this.pictureHashPaths,
      },
      measured,
      targetLufs,
    );
    const [delivered, stems] = await bothOrNeither(encoding, keeping, () => this.stopKeeping.abort());
    return {
      outputPath: this.outputPath,
      contentType: format.contentType,
      fileExtension: format.fileExtension,
      durationSeconds: probe.durationSeconds ?? audioSeconds,
      ...(delivered.integratedLufs === null ? {} : { measuredLufs: delivered.integratedLufs }),
      ...(stems && { stems }),
      quality: { input, output: delivered, audioOffsetMs: await this.audioOffset(format), picture: await this.pictureHashes() },
    };
  }

  private async keepStems(flacPath: string, lowBandEnergy: LowBandEnergy, input: AudioFigures): Promise<KeptStems> {
    const signal = this.request.signal ? AbortSignal.any([this.request.signal, this.stopKeeping.signal]) : this.stopKeeping.signal;
    await this.runner.run({ file: this.ffmpegPath, args: keepStemsArgs(this.stemsRawPath, flacPath) }, { timeoutMs: this.deadline.remainingMs(), signal });
    return { path: flacPath, lowBandEnergy, input };
  }

  // A measuring run's figures: ebur128's summary in its stderr, the levels it wrote to `levelsFile`. A
  // figure the run left out reads null: a report never fails a job that could finish.
  private async figures(stderrTail: string, levelsFile: string): Promise<AudioFigures> {
    const summary = orNull(() => parseEbur128Summary(stderrTail));
    const noiseFloorDb = await readNoiseFloor(join(this.request.workDir, levelsFile)).catch(() => null);
    return { integratedLufs: finiteOrNull(summary?.integratedLufs), truePeakDb: finiteOrNull(summary?.truePeakDb), noiseFloorDb };
  }

  // The delivered audio against the source's, from the samples the decode and the tap's measuring
  // wrote. An export decodes its source job's stems, not a source: its offset is that job's. Silence,
  // left unmeasured, wrote none. A figure that cannot be read is null: a report never fails a job.
  private async audioOffset(format: OutputFormat): Promise<number | null> {
    if (this.request.fromStems) return null;
    const { source, delivered } = this.offsetSamplesPaths;
    return readAudioOffsetMs(source, delivered, (format.audioTap.primingSamples * 1000) / PCM_SAMPLE_RATE).catch(() => null);
  }

  private async pictureHashes(): Promise<CleanAudioQuality['picture']> {
    const [sourceSha256, writtenSha256] = await Promise.all([readPictureHash(this.pictureHashPaths.source), readPictureHash(this.pictureHashPaths.written)]);
    return { sourceSha256, writtenSha256 };
  }

  // An export: the kept stems decoded and remixed at this job's strength into the raw file, measured
  // and with its low band, as denoise() leaves them (decision 0093).
  private async remix(stems: KeptStems): Promise<Denoised> {
    const { request } = this;
    const meterPath = `${this.rawPath}.loudness`;
    const timeoutMs = this.deadline.remainingMs();
    const raw = createWriteStream(this.rawPath);
    try {
      await this.runner.pipe(
        [
          { file: this.ffmpegPath, args: decodeStemsArgs(stems.path) },
          remixCommand(request.nodePath ?? process.execPath, request.options.strength, meterPath, this.lowBandPath, stems.lowBandEnergy),
        ],
        { timeoutMs, signal: request.signal, stdout: raw },
      );
      const seconds = (await stat(this.rawPath)).size / PCM_BYTES_PER_SECOND;
      if (seconds === 0) throw noSound();
      const weight = lowBandWeight([stems.lowBandEnergy]);
      return {
        seconds,
        input: stems.input,
        measured: await readDenoisedLoudness([{ path: meterPath }]),
        lowBand: weight > 0 ? { path: this.lowBandPath, weight } : null,
        lowBandEnergy: stems.lowBandEnergy,
      };
    } finally {
      raw.destroy();
      await finished(raw).catch(() => undefined);
      await rm(meterPath, { force: true });
    }
  }

  // Muxes the output, then checks the delivered loudness and encodes again with corrected gain and
  // ceiling while it misses: limiting and lossy encoding move loudness and peaks. Once the loudness
  // attempts are spent, only the true peak is corrected: the file is never delivered over
  // -1 dBTP, whatever that costs the loudness. Returns the delivered audio's figures; silence is left
  // as it is, unmeasured.
  private async encode(plan: MuxPlan, measured: LoudnessMeasurement, targetLufs: number): Promise<AudioFigures> {
    let loudness = firstLoudnessPlan(measured, targetLufs);
    if (!loudness) {
      await this.mux(plan);
      return { integratedLufs: null, truePeakDb: null, noiseFloorDb: null };
    }
    for (let encodes = 1; ; encodes++) {
      const { stderrTail } = await this.muxMeasured({ ...plan, audioFilter: loudnessFilter(loudness, measured) });
      const delivered = parseEbur128Summary(stderrTail);
      const next: LoudnessPlan | null =
        encodes < LOUDNESS_ATTEMPTS ? nextLoudnessPlan(loudness, measured, delivered, targetLufs) : peakCorrection(loudness, delivered);
      if (!next && !overPeakLimit(delivered)) return this.figures(stderrTail, OUTPUT_LEVELS);
      if (!next || encodes >= MAX_ENCODES) {
        throw new MediaError(
          'generation_failed',
          `The cleaned audio peaks at ${delivered.truePeakDb} dBTP after ${encodes} encodes; the limit is ${TRUE_PEAK_LIMIT_DB} dBTP`,
        );
      }
      loudness = next;
    }
  }

  private checkAudioLength(seconds: number): void {
    if (seconds <= this.maxAudioSeconds) return;
    throw new MediaError('audio_too_long', `The audio is longer than ${this.maxAudioSeconds} seconds`, [
      { type: 'audio_too_long', message: `The audio lasts ${Math.round(seconds)} s; the limit is ${this.maxAudioSeconds} s` },
    ]);
  }

  // Denoises the first audio stream into the raw file, and what it removed in the low band into its
  // own. Returns the audio's length in seconds, the denoised audio's loudness, and the low band to give
  // back. Its loudness is left out of the measurement: given back, the band adds about 0.1 LU at most
  // (where under 2.5 % of its energy was removed), which the check of the encoded file corrects.
  private async denoise(probedSeconds: number): Promise<Denoised> {
    const { request } = this;
    const maxParts = request.denoisers ?? 1;
    // The denoised samples written so far, against the probed length.
    const expectedBytes = Math.max(1, Math.min(probedSeconds, this.maxAudioSeconds) * PCM_BYTES_PER_SECOND);
    // Each way of denoising says where its count of written bytes is read.
    let written = (): number => 0;
    const onProgress = request.onProgress;
    const ticker = onProgress && setInterval(() => onProgress(DENOISE_SHARE * Math.min(1, written() / expectedBytes)), PROGRESS_TICK_MS);
    let measured: DecodedAndDenoised;
    try {
      const countFrom = (bytes: () => number): void => void (written = bytes);
      measured = maxParts > 1 && probedSeconds >= 2 * MIN_PART_SECONDS ? await this.denoiseInParts(maxParts, countFrom) : await this.denoiseStreamed(countFrom);
    } finally {
      clearInterval(ticker);
    }
    const seconds = (await stat(this.rawPath)).size / PCM_BYTES_PER_SECOND;
    if (seconds === 0) throw noSound();
    this.checkAudioLength(seconds);
    const weight = lowBandWeight(measured.lowBand);
    return {
      seconds,
      input: measured.input,
      measured: measured.loudness,
      lowBand: weight > 0 ? { path: this.lowBandPath, weight } : null,
      lowBandEnergy: {
        inputEnergy: measured.lowBand.reduce((sum, part) => sum + part.inputEnergy, 0),
        removedEnergy: measured.lowBand.reduce((sum, part) => sum + part.removedEnergy, 0),
      },
    };
  }

  // ffmpeg decode | rnnoise-filter > raw file, streamed: one denoiser, measuring what it writes.
  private async denoiseStreamed(countFrom: (bytes: () => number) => void): Promise<DecodedAndDenoised> {
    const { request } = this;
    const meterPath = `${this.rawPath}.loudness`;
    // Read first: a spent budget throws before the file is opened.
    const timeoutMs = this.deadline.remainingMs();
    const raw = createWriteStream(this.rawPath);
    countFrom(() => raw.bytesWritten);
    try {
      const [decoded] = await this.runner.pipe([this.decodeCommand(), this.denoiser(meterPath, this.lowBandPath, this.keptStemsPath())], {
        timeoutMs,
        signal: request.signal,
        stdout: raw,
      });
      const input = await this.decodedInput(decoded.stderrTail);
      return { input, loudness: await readDenoisedLoudness([{ path: meterPath }]), lowBand: [await readLowBandEnergy(this.lowBandPath)] };
    } catch (error) {
      throw error instanceof ProcessFailedError && error.pipeStage === 0 ? this.decoderFailure(error) : error;
    } finally {
      raw.destroy(); // closes the file when the pipe failed before writing to it
      // Its open may still be under way: once the job's folder is gone, it would fail with nobody listening.
      await finished(raw).catch(() => undefined);
      await rm(meterPath, { force: true });
    }
  }

  // Long audio on a worker with cores to spare: decoded to a file, denoised in parts at once (one
  // denoiser each, denoise-parts.ts), each measuring its part.
  private async denoiseInParts(maxParts: number, countFrom: (bytes: () => number) => void): Promise<DecodedAndDenoised> {
    const { request } = this;
    const pcmPath = join(request.workDir, 'decoded.s16le');
    let written = 0;
    countFrom(() => written);
    try {
      let input: AudioFigures;
      try {
        const decoded = await this.runner.run(this.decodeCommand(), { timeoutMs: this.deadline.remainingMs(), signal: request.signal, stdout: createWriteStream(pcmPath) });
        input = await this.decodedInput(decoded.stderrTail);
      } catch (error) {
        throw error instanceof ProcessFailedError ? this.decoderFailure(error) : error;
      }
      const decodedBytes = (await stat(pcmPath)).size;
      if (decodedBytes === 0) throw noSound();
      const denoised = await denoiseInParts({
        runner: this.runner,
        denoiser: (meterPath, lowBandPath, stemsPath) => this.denoiser(meterPath, lowBandPath, stemsPath),
        pcmPath,
        rawPath: this.rawPath,
        lowBandPath: this.lowBandPath,
        stemsPath: this.keptStemsPath(),
        parts: denoiseParts(decodedBytes, maxParts),
        timeoutMs: this.deadline.remainingMs(),
        signal: request.signal,
        onBytes: (total) => void (written = total),
      });
      return { ...denoised, input };
    } finally {
      await rm(pcmPath, { force: true });
    }
  }

  private denoiser(meterPath: string, lowBandPath: string, stemsPath?: string): ProcessCommand {
    return denoiseCommand(this.request.nodePath ?? process.execPath, this.request.options.strength, meterPath, lowBandPath, stemsPath);
  }

  // Where the denoiser writes its stems: only when they are kept.
  private keptStemsPath(): string | undefined {
    return this.request.keepStemsAt === undefined ? undefined : this.stemsRawPath;
  }

  // In the job's folder: the measuring output names its levels file relative to it (noise-floor.ts).
  private decodeCommand(): ProcessCommand {
    return { file: this.ffmpegPath, args: decodeAudioArgs(this.request.inputPath, this.maxAudioSeconds, this.offsetSamplesPaths.source), cwd: this.request.workDir };
  }

  // A decoder that finished: whole, and the source's figures as its second output measured them.
  private async decodedInput(stderrTail: string): Promise<AudioFigures> {
    const truncated = truncationIn(stderrTail);
    if (truncated) throw damagedInputError(truncated, this.request.inputPath);
    return this.figures(stderrTail, INPUT_LEVELS);
  }

  // The decoder reads only the input, with arguments fixed by the probe: its failure is the file's.
  private decoderFailure(error: ProcessFailedError): MediaError {
    return (
      this.refusal(error) ??
      new MediaError('invalid_file', 'The audio stream could not be decoded', [
        { type: 'undecodable_audio', message: forUser(lastLine(error.stderrTail), this.request.inputPath) },
      ])
    );
  }

  private async mux(plan: MuxPlan): Promise<void> {
    try {
      await this.runner.run(
        { file: this.ffmpegPath, args: muxArgs(plan) },
        { timeoutMs: this.deadline.remainingMs(), signal: this.request.signal },
      );
    } catch (error) {
      throw this.muxFailure(error, plan);
    }
  }

  // Muxes, and measures the delivered audio from the muxer's tap at once, on the other core. Returns
  // the measuring run's result: its stderr holds the loudness summary.
  private async muxMeasured(plan: MuxPlan): Promise<{ stderrTail: string }> {
    try {
      const [, measuring] = await this.runner.pipe(
        [
          { file: this.ffmpegPath, args: muxArgs(plan, true) },
          { file: this.ffmpegPath, args: measureLoudnessArgs(tapInput(plan.format), OUTPUT_LEVELS, this.offsetSamplesPaths.delivered), cwd: this.request.workDir },
        ],
        { timeoutMs: this.deadline.remainingMs(), signal: this.request.signal },
      );
      return measuring;
    } catch (error) {
      throw error instanceof ProcessFailedError && error.pipeStage === 0 ? this.muxFailure(error, plan) : error;
    }
  }

  // Copying the picture reads all of the input's video packets: damage shows up here first.
  private muxFailure(error: unknown, plan: MuxPlan): unknown {
    const damage = error instanceof ProcessFailedError ? damageIn(error.stderrTail) : null;
    return this.refusal(error) ?? (damage ? damagedInputError(damage, plan.inputPath) : error);
  }

  // The fence, or a decoder's limits, stopped a run that opens the user's file: the input's fault.
  // The probe meets them first; the runs after it carry the same fence.
  private refusal(error: unknown): MediaError | null {
    return error instanceof ProcessFailedError ? refusalIn(error.stderrTail, this.request.inputPath, MAX_DECODED_PICTURE) : null;
  }
}

// Both results; when the first fails, the second is stopped and waited for before the failure goes on
// (the caller removes the folder its process writes in).
async function bothOrNeither<A, B>(first: Promise<A>, second: Promise<B>, stop: () => void): Promise<[A, B]> {
  // Settled at once, so a second that fails first is never an unhandled rejection.
  const secondOutcome = second.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  let firstValue: A;
  try {
    firstValue = await first;
  } catch (error) {
    stop();
    await secondOutcome;
    throw error;
  }
  const outcome = await secondOutcome;
  if ('error' in outcome) throw outcome.error;
  return [firstValue, outcome.value];
}

function finiteOrNull(decibels: number | undefined): number | null {
  return decibels !== undefined && Number.isFinite(decibels) ? decibels : null;
}

function orNull<T>(read: () => T): T | null {
  try {
    return read();
  } catch {
    return null;
  }
}

function noSound(): MediaError {
  return new MediaError('invalid_file', 'The audio stream holds no sound', [
    { type: 'undecodable_audio', message: 'Decoding the first audio stream produced no samples' },
  ]);
}
