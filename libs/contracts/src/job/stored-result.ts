import type { JobType } from './job-type';

// A produced file as the worker stored it; the gateway turns object_key into a presigned URL on read.
export interface StoredFileV1 {
  object_key: string;
  content_type: string;
  file_name: string;
  file_size: number;
}

// What a COMPLETED job keeps beside its result, for the result retention period, so that
// POST /v1/{type}/{job_id}/exports delivers it again without running the model (decision 0093). Never
// part of the job object.
// Clean audio: the denoiser's stems as one 4-channel FLAC (denoised, input, hum, low band lost: see
// remix-stems.mjs), with what the remix needs besides them.
export interface StoredStemsV1 {
  kind: 'stems';
  file: StoredFileV1;
  // The low band's energies the denoising measured (they do not depend on strength).
  low_band_energy: { input: number; removed: number };
  // Integrated loudness of the source's own audio (null: silence): normalize_loudness false keeps it.
  input_lufs: number | null;
  // The rest of the source's figures, for an export's quality report (decision 0096); absent in stems
  // kept before reports.
  input_true_peak_dbtp?: number | null;
  input_noise_floor_dbfs?: number | null;
  // The duration processed and charged: an export is quoted with it.
  duration_seconds: number;
}

// Background removal (decision 0094): the alpha frames as the encoder got them, one for one, in a
// lossless FFV1 Matroska file, and the input as it was fetched (the pictures and the sound).
export interface StoredMatteV1 {
  kind: 'matte';
  file: StoredFileV1;
  source: StoredFileV1;
  duration_seconds: number;
}

export type StoredExportSourceV1 = StoredStemsV1 | StoredMatteV1;

// What a COMPLETED job measured of its own work, kept beside its result and served as its quality
// report (GET /v1/{type}/{job_id}/report, decision 0096). Never part of the job object.
// An audio stream: null where silence leaves nothing to measure.
export interface AudioFiguresV1 {
  integrated_lufs: number | null;
  true_peak_dbtp: number | null;
  noise_floor_dbfs: number | null;
}

// Clean audio: the source's audio and the delivered one, the delivered audio's offset against the
// source's in ms (null where it could not be told; absent from results stored before it was measured),
// and the SHA-256 of the source's picture packets and of those written into the delivered file.
export interface CleanAudioQualityV1 {
  kind: 'clean-audio';
  input: AudioFiguresV1;
  output: AudioFiguresV1;
  audio_offset_ms?: number | null;
  picture: { source_sha256: string; output_sha256: string };
}

// Background removal: the frames encoded, those whose matte shows a person, and the matte's flicker
// where the picture is still.
export interface CutoutQualityV1 {
  kind: 'cutout';
  frames: number;
  frames_with_person: number;
  flicker: number;
}

export type StoredQualityV1 = CleanAudioQualityV1 | CutoutQualityV1;

export type StoredResultV1 =
  | { job_type: Extract<JobType, 'clean-audio-video'>; video: StoredFileV1; export_source?: StoredStemsV1; quality?: CleanAudioQualityV1 }
  | { job_type: Extract<JobType, 'video-background-removal'>; files: StoredFileV1[]; export_source?: StoredMatteV1; quality?: CutoutQualityV1 };

// Every object a result stored: what deleting the job's files deletes.
export function resultObjectKeys(result: StoredResultV1 | null): string[] {
  if (!result) return [];
  const kept = result.export_source ? [result.export_source.file, ...(result.export_source.kind === 'matte' ? [result.export_source.source] : [])] : [];
  const delivered = 'files' in result ? result.files : [result.video];
  return [...delivered, ...kept].map((file) => file.object_key);
}
