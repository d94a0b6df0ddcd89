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

// Payloads exactly as the first V1 publishers wrote them. They must keep type-checking against the V1
// types and keep being accepted by the consumers: a change that breaks one needs a V2, not an edit.

const job = { version: 1, job_id: '0b7e4c52-5a0f-4d3e-9c1e-2f6a8d9b1c34', account_id: '5d2c8a9e-1f3b-4c7d-8e6a-9b0c1d2e3f40' } as const;

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
};
