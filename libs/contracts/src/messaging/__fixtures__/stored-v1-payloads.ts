import type {
  JobCancelledEventV1,
  JobCompletedEventV1,
  JobCreatedEventV1,
  JobFailedEventV1,
  JobFailedReportV1,
  JobStartedReportV1,
  JobSucceededReportV1,
  JobWorkRequestedV1,
} from '../payloads';
import type { JobPlannedReportV1, PlatePassWorkV1, PlateStoredReportV1, SegmentDoneReportV1, SegmentJoinWorkV1, SegmentOutputV1, SegmentPlanV1, SegmentWorkV1 } from '../piece-payloads';

// Payloads exactly as the first V1 publishers wrote them. They must keep type-checking against the V1
// types and keep being accepted by the consumers: a change that breaks one needs a V2, not an edit.

const job = { version: 1, job_id: '0b7e4c52-5a0f-4d3e-9c1e-2f6a8d9b1c34', account_id: '5d2c8a9e-1f3b-4c7d-8e6a-9b0c1d2e3f40' } as const;

// A long background removal's plan and pieces (decision 0101).
const longJob = { ...job, job_type: 'video-background-removal' } as const;
const pieceInput = { input_key: 'uploads/5d2c8a9e-1f3b-4c7d-8e6a-9b0c1d2e3f40/7c1d2e3f', frames: 18_000, fps: 30, media_duration_seconds: 600 };
const segments: SegmentPlanV1[] = [
  { index: 0, cut_from: 0, matte_from: 0, from: 0, to: 600, times: { seek: null, start: -0.5, delivered: -0.5, end: 19.983 } },
  { index: 1, cut_from: 450, matte_from: 480, from: 600, to: 18_000, times: null },
];
const segmentOutput: SegmentOutputV1 = {
  files: [{ role: 'transparent', object_key: 'segments/0b7e4c52/0/transparent.webm', content_type: 'video/webm', file_extension: 'webm' }],
  duration_seconds: 20,
  frames: 600,
  frame_rate: '30/1',
  width: 1280,
  height: 720,
  quality: { frames: 600, frames_with_person: 598, flicker: 0.012, still_samples: 2400 },
};
const pieceWork = { ...longJob, ...pieceInput, options: { output_codec: 'vp9', refine_foreground_edges: true, subject_is_person: true }, requested_at: '2026-12-06T06:00:00.000Z' } as const;

export const STORED_V1_PAYLOADS = {
  workCleanAudio: {
    ...job,
    job_type: 'clean-audio-video',
    input: { kind: 'upload', upload_id: '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f', object_key: 'uploads/5d2c8a9e-1f3b-4c7d-8e6a-9b0c1d2e3f40/7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f' },
    options: { strength: 0.874, normalize_loudness: true, target_lufs: -19 },
    requested_at: '2026-11-22T06:00:00.000Z',
  } satisfies JobWorkRequestedV1<'clean-audio-video'>,
  workBackgroundRemoval: {
    ...job,
    job_type: 'video-background-removal',
    input: { kind: 'url', url: 'https://cdn.example.com/clip.mp4' },
    options: { output_codec: 'vp9', refine_foreground_edges: true, subject_is_person: true },
    requested_at: '2026-11-22T06:00:00.000Z',
  } satisfies JobWorkRequestedV1<'video-background-removal'>,
  // Written before deadline_at existed.
  reportStarted: { ...job, job_type: 'clean-audio-video', attempt: 1, worker_id: 'host:123' } satisfies JobStartedReportV1,
  reportSucceeded: {
    ...job,
    job_type: 'clean-audio-video',
    result: { job_type: 'clean-audio-video', video: { object_key: 'results/a/b/b-clean.mp4', content_type: 'video/mp4', file_name: 'b-clean.mp4', file_size: 1024 } },
    media_duration_seconds: 12.5,
  } satisfies JobSucceededReportV1,
  reportFailed: { ...job, job_type: 'clean-audio-video', error: { code: 'invalid_file', message: 'The file has no audio stream', details: null } } satisfies JobFailedReportV1,
  eventCreated: {
    ...job,
    job_type: 'clean-audio-video',
    event_id: 'e1',
    occurred_at: '2026-11-22T06:00:00.000Z',
    options: { strength: 0.874, normalize_loudness: true, target_lufs: -19 },
  } satisfies JobCreatedEventV1,
  eventCompleted: {
    ...job,
    job_type: 'clean-audio-video',
    event_id: 'e2',
    occurred_at: '2026-11-22T06:01:00.000Z',
    result: { job_type: 'clean-audio-video', video: { object_key: 'results/a/b/b-clean.mp4', content_type: 'video/mp4', file_name: 'b-clean.mp4', file_size: 1024 } },
    media_duration_seconds: 12.5,
  } satisfies JobCompletedEventV1,
  eventFailed: {
    ...job,
    job_type: 'clean-audio-video',
    event_id: 'e3',
    occurred_at: '2026-11-22T06:01:00.000Z',
    error: { code: 'transload_failed', message: 'The URL answered 404' },
  } satisfies JobFailedEventV1,
  eventCancelled: { ...job, job_type: 'clean-audio-video', event_id: 'e4', occurred_at: '2026-11-22T06:01:00.000Z' } satisfies JobCancelledEventV1,
  reportPlanned: { ...longJob, ...pieceInput, attempt: 1, deadline_at: '2026-12-06T07:00:00.000Z', segments } satisfies JobPlannedReportV1,
  reportPlateStored: { ...longJob, index: 1, plate_key: 'segments/0b7e4c52/plate-1' } satisfies PlateStoredReportV1,
  reportSegmentDone: { ...longJob, index: 0, output: segmentOutput } satisfies SegmentDoneReportV1,
  workPass: { ...pieceWork, segments } satisfies PlatePassWorkV1,
  workSegment: { ...pieceWork, segment: segments[1]!, plate_key: 'segments/0b7e4c52/plate-1' } satisfies SegmentWorkV1,
  workJoin: { ...pieceWork, segments: [segmentOutput, { ...segmentOutput, frames: 17_400, duration_seconds: 580 }] } satisfies SegmentJoinWorkV1,
};
