import { join } from 'node:path';
import { CLEAN_AUDIO_DEFAULTS, type AudioFiguresV1, type CleanAudioQualityV1, type JobWorkRequestedV1 } from '@vj/contracts';
import { cleanAudioVideo, MediaError, ProcessRunner, type AudioFigures, type CleanAudioQuality, type CleanAudioVideoRequest, type CleanedVideo, type KeptStems, type WarmNodeProcesses } from '../media';
import type { JobTypeProcessor, KeptForExports, MeasuredInput, ProcessorOutput, ProcessorRun } from '../processing/ports';

export interface CleanAudioSettings {
  maxAudioSeconds: number;
  timeLimitMs: number;
  ffmpegPath?: string;
  ffprobePath?: string;
  // Denoisers a job may run at once on long audio.
  denoisers?: number;
  // Keeps each job's stems for exports (decision 0093; CLEAN_AUDIO_KEEP_STEMS). Absent: kept.
  keepStems?: boolean;
  // Denoisers booted ahead of the jobs that use them.
  warmDenoisers?: Pick<WarmNodeProcesses, 'spawn' | 'fill'>;
}

export class CleanAudioVideoProcessor implements JobTypeProcessor<'clean-audio-video'> {
  private readonly runner: ProcessRunner | undefined;

  constructor(
    private readonly settings: CleanAudioSettings,
    private readonly clean: (request: CleanAudioVideoRequest) => Promise<CleanedVideo> = cleanAudioVideo,
  ) {
    this.runner = settings.warmDenoisers && new ProcessRunner(settings.warmDenoisers.spawn);
  }

  get timeLimitMs(): number {
    return this.settings.timeLimitMs;
  }

  get maxSeconds(): number {
    return this.settings.maxAudioSeconds;
  }

  // "up to 30 minutes of media (longer: job fails with audio_too_long)" (docs/spec/api-v1.md).
  refusal({ seconds }: MeasuredInput): MediaError | null {
    if (seconds <= this.settings.maxAudioSeconds) return null;
    return new MediaError('audio_too_long', `The audio is longer than ${this.settings.maxAudioSeconds} seconds`, [
      { type: 'audio_too_long', message: `The media lasts more than ${Math.floor(seconds)} s; the limit is ${this.settings.maxAudioSeconds} s` },
    ]);
  }

  // A job keeps its stems for exports; an export remixes its source's (decision 0093).
  async run({ job, inputPath, workDir, signal, probe, exportSourcePath, onProgress }: ProcessorRun<'clean-audio-video'>): Promise<ProcessorOutput> {
    const fromStems = stemsOf(job, exportSourcePath);
    const cleaned = await this.clean({
      inputPath,
      workDir,
      probe,
      // Defaults again, for work messages written before an option existed.
      options: { ...CLEAN_AUDIO_DEFAULTS, ...job.options },
      maxAudioSeconds: this.settings.maxAudioSeconds,
      denoisers: this.settings.denoisers,
      timeoutMs: this.settings.timeLimitMs,
      signal,
      onProgress,
      ffmpegPath: this.settings.ffmpegPath,
      ffprobePath: this.settings.ffprobePath,
      runner: this.runner,
      ...(fromStems ? { fromStems } : this.settings.keepStems === false ? {} : { keepStemsAt: join(workDir, 'stems.flac') }),
    });
    return {
      files: [{ path: cleaned.outputPath, fileName: `${job.job_id}-clean.${cleaned.fileExtension}`, contentType: cleaned.contentType }],
      durationSeconds: cleaned.durationSeconds,
      ...(cleaned.stems && { kept: keptForExports(job.job_id, cleaned.stems) }),
      quality: storedQuality(cleaned.quality),
    };
  }

  // The denoisers this job used are replaced now that it is done.
  afterDelivery(): void {
    this.settings.warmDenoisers?.fill();
  }
}

// An export's stems, as its source job kept them; undefined for a job of its own.
function stemsOf(job: JobWorkRequestedV1<'clean-audio-video'>, exportSourcePath: string | undefined): KeptStems | undefined {
  if (job.input.kind !== 'export') return undefined;
  const { source } = job.input;
  if (!exportSourcePath || source.kind !== 'stems') throw new Error(`job ${job.job_id}: an export without its source's stems`);
  const { low_band_energy, input_lufs, input_true_peak_dbtp, input_noise_floor_dbfs } = source;
  return {
    path: exportSourcePath,
    lowBandEnergy: { inputEnergy: low_band_energy.input, removedEnergy: low_band_energy.removed },
    input: { integratedLufs: input_lufs, truePeakDb: input_true_peak_dbtp ?? null, noiseFloorDb: input_noise_floor_dbfs ?? null },
  };
}

function keptForExports(jobId: string, stems: KeptStems): KeptForExports {
  return {
    files: { file: { path: stems.path, fileName: `${jobId}-stems.flac`, contentType: 'audio/flac' } },
    details: {
      kind: 'stems',
      low_band_energy: { input: stems.lowBandEnergy.inputEnergy, removed: stems.lowBandEnergy.removedEnergy },
      input_lufs: stems.input.integratedLufs,
      input_true_peak_dbtp: stems.input.truePeakDb,
      input_noise_floor_dbfs: stems.input.noiseFloorDb,
    },
  };
}

function storedQuality({ input, output, audioOffsetMs, picture }: CleanAudioQuality): CleanAudioQualityV1 {
  return {
    kind: 'clean-audio',
    input: storedFigures(input),
    output: storedFigures(output),
    audio_offset_ms: audioOffsetMs,
    picture: { source_sha256: picture.sourceSha256, output_sha256: picture.writtenSha256 },
  };
}

function storedFigures(figures: AudioFigures): AudioFiguresV1 {
  return { integrated_lufs: figures.integratedLufs, true_peak_dbtp: figures.truePeakDb, noise_floor_dbfs: figures.noiseFloorDb };
}
