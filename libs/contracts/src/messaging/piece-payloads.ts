import type { JobOptionsByType } from '../job/job-options';
import type { PIECED_JOB_TYPE } from './names';
import type { JobMessageBaseV1 } from './payloads';

// A long background removal run as pieces on many workers (decision 0101): the worker that took the
// job's work message plans it and reports `planned`; the jobs service then sends the plate pass, each
// segment once its plate is stored, and the join once every segment is done.

type PiecedJobType = typeof PIECED_JOB_TYPE;

// Where a job's pieces keep what they hand on (its input, plates, segments' files): under the job's
// own result folder, so deleting the job's files deletes them; the join deletes them once the job's
// files are stored, the retention sweeper once a job that never joined has ended.
export function piecePrefix(accountId: string, jobId: string): string {
  return `results/${accountId}/${jobId}/pieces/`;
}

// One segment, by frame number from 0 (the render worker's segment-plan.ts): it delivers [from, to),
// matted from matte_from, its input starting at the keyframe cut_from. `times` are where its frames
// are cut by time, null where the video is counted by frame.
export interface SegmentPlanV1 {
  index: number;
  cut_from: number;
  matte_from: number;
  from: number;
  to: number;
  times: { seek: number | null; start: number; delivered: number; end: number } | null;
}

// What the plan holds for every piece.
export interface PieceInputV1 {
  // The job's input as the planning worker stored it under piecePrefix, which every piece reads.
  input_key: string;
  frames: number;
  fps: number;
  // The duration measured and charged (decision 0023).
  media_duration_seconds: number;
}

// A segment's files in the bucket, silent, as the join reads them.
export interface SegmentFileV1 {
  role: 'transparent' | 'rgb' | 'matte' | 'frames' | 'composite';
  object_key: string;
  content_type: 'video/webm' | 'video/mp4' | 'video/quicktime' | 'application/zip' | 'image/png';
  file_extension: 'webm' | 'mp4' | 'mov' | 'zip' | 'pngs';
}

export interface SegmentOutputV1 {
  files: SegmentFileV1[];
  duration_seconds: number;
  frames: number;
  // As ffmpeg states it ("30000/1001").
  frame_rate: string;
  width: number;
  height: number;
  // The mattes' figures (decision 0096), which add up over segments.
  quality: { frames: number; frames_with_person: number; flicker: number; still_samples: number } | null;
  // The segment's alpha frames, kept losslessly for exports (decisions 0094 and 0106), or null where
  // none was kept (BACKGROUND_REMOVAL_KEEP_MATTE=false, or it reached its size limit). Absent from
  // reports written before segments kept one: such a job keeps nothing to export.
  kept_matte_key?: string | null;
}

// vj.reports.job.v1.planned: render worker -> jobs service, instead of matting a long video itself.
export interface JobPlannedReportV1 extends JobMessageBaseV1, PieceInputV1 {
  attempt: number;
  // ISO 8601: when the whole job's limits run out, counted as a whole run's would be.
  deadline_at: string;
  segments: SegmentPlanV1[];
}

// vj.reports.job.v1.plate_stored: the pass stored the background plate a segment starts from.
export interface PlateStoredReportV1 extends JobMessageBaseV1 {
  index: number;
  plate_key: string;
}

// vj.reports.job.v1.segment_done: a segment's files are in the bucket.
export interface SegmentDoneReportV1 extends JobMessageBaseV1 {
  index: number;
  output: SegmentOutputV1;
}

interface PieceWorkBaseV1 extends JobMessageBaseV1, PieceInputV1 {
  job_type: PiecedJobType;
  options: JobOptionsByType[PiecedJobType];
  requested_at: string;
}

// vj.work.v1.video-background-removal.pass: learn the background over the whole video and store the
// plate each segment after the first starts from.
export interface PlatePassWorkV1 extends PieceWorkBaseV1 {
  segments: SegmentPlanV1[];
}

// vj.work.v1.video-background-removal.segment: matte one segment from its plate (null for the first).
export interface SegmentWorkV1 extends PieceWorkBaseV1 {
  segment: SegmentPlanV1;
  plate_key: string | null;
}

// vj.work.v1.video-background-removal.join: make the segments' files the job's, with the input's sound.
export interface SegmentJoinWorkV1 extends PieceWorkBaseV1 {
  segments: SegmentOutputV1[];
}
