import { renderCreatedJob, renderJob, type JobRecordV1, type StoredFileV1 } from '@vj/contracts';
import { schemaViolations } from './schema-validator';

const JOB_ID = '7d0b6c1e-3f4a-4c3e-9a51-0c2f6b1e9d10';
const sign = async (file: StoredFileV1) => `https://s3.test/${file.object_key}?sig=1`;

const video: StoredFileV1 = { object_key: 'results/a/video.mp4', content_type: 'video/mp4', file_name: 'video.mp4', file_size: 1234 };

function record(overrides: Partial<JobRecordV1>): JobRecordV1 {
  return {
    job_id: JOB_ID,
    account_id: 'b3c1d9a0-0000-4000-8000-000000000001',
    job_type: 'clean-audio-video',
    status: 'PROCESSING',
    input: { kind: 'url', url: 'https://example.com/a.mp4' },
    options: { strength: 0.874, normalize_loudness: true, target_lufs: -19 },
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
    credits_estimated: 12,
    credits_charged: null,
    result: null,
    error: null,
    ...overrides,
  };
}

describe('renderCreatedJob', () => {
  it('answers PROCESSING with credits_estimated when the jobs service quoted one', () => {
    const job = renderCreatedJob(record({ credits_estimated: 12 }));
    expect(job).toEqual({ job_id: JOB_ID, status: 'PROCESSING', credits_estimated: 12 });
    expect(schemaViolations('CleanAudioVideoJob', job)).toEqual([]);
  });

  it('leaves credits_estimated out when there is no estimate', () => {
    expect(renderCreatedJob(record({ credits_estimated: null }))).toEqual({ job_id: JOB_ID, status: 'PROCESSING' });
  });

  it('answers PROCESSING on a replay even when the job has moved on', () => {
    expect(renderCreatedJob(record({ status: 'CANCELLED', credits_estimated: null }))).toEqual({ job_id: JOB_ID, status: 'PROCESSING' });
  });
});

describe('renderJob', () => {
  it('renders a PROCESSING job as job_id and status only, without credits_estimated', async () => {
    const job = await renderJob(record({}), sign);
    expect(job).toEqual({ job_id: JOB_ID, status: 'PROCESSING' });
    expect(schemaViolations('CleanAudioVideoJob', job)).toEqual([]);
  });

  it('renders a CANCELLED job as job_id and status only', async () => {
    const job = await renderJob(record({ status: 'CANCELLED' }), sign);
    expect(job).toEqual({ job_id: JOB_ID, status: 'CANCELLED' });
    expect(schemaViolations('CleanAudioVideoJob', job)).toEqual([]);
  });

  it('renders a COMPLETED clean-audio job with a signed video file and credits_charged', async () => {
    const job = await renderJob(record({ status: 'COMPLETED', credits_charged: 10, result: { job_type: 'clean-audio-video', video } }), sign);
    expect(job).toEqual({
      job_id: JOB_ID,
      status: 'COMPLETED',
      credits_charged: 10,
      result: { video: { url: 'https://s3.test/results/a/video.mp4?sig=1', content_type: 'video/mp4', file_name: 'video.mp4', file_size: 1234 } },
    });
    expect(schemaViolations('CleanAudioVideoJob', job)).toEqual([]);
  });

  it('renders a COMPLETED background-removal job with every file signed and no credits_charged before the charge is known', async () => {
    const matte = { ...video, object_key: 'results/a/matte.mp4', file_name: 'matte.mp4' };
    const job = await renderJob(
      record({
        job_type: 'video-background-removal',
        options: { output_codec: 'h264', refine_foreground_edges: true, subject_is_person: true },
        status: 'COMPLETED',
        result: { job_type: 'video-background-removal', files: [video, matte] },
      }),
      sign,
    );
    expect(job).toEqual({
      job_id: JOB_ID,
      status: 'COMPLETED',
      result: {
        files: [
          { url: 'https://s3.test/results/a/video.mp4?sig=1', content_type: 'video/mp4', file_name: 'video.mp4', file_size: 1234 },
          { url: 'https://s3.test/results/a/matte.mp4?sig=1', content_type: 'video/mp4', file_name: 'matte.mp4', file_size: 1234 },
        ],
      },
    });
    expect(schemaViolations('VideoBackgroundRemovalJob', job)).toEqual([]);
  });

  it('renders a FAILED job with its error and nothing else', async () => {
    const error = { code: 'invalid_file' as const, message: 'no audio stream', details: [{ type: 'probe', message: 'audio streams: 0', field: 'video_url' }] };
    const job = await renderJob(record({ status: 'FAILED', error, credits_charged: 3 }), sign);
    expect(job).toEqual({ job_id: JOB_ID, status: 'FAILED', error });
    expect(schemaViolations('CleanAudioVideoJob', job)).toEqual([]);
  });

  it('keeps null error details as null and drops properties the spec does not list', async () => {
    const error = { code: 'timeout' as const, message: 'too slow', details: null, stack: 'internal' } as never;
    const job = await renderJob(record({ status: 'FAILED', error }), sign);
    expect(job).toEqual({ job_id: JOB_ID, status: 'FAILED', error: { code: 'timeout', message: 'too slow', details: null } });
  });

  it('refuses a COMPLETED record without a stored result', async () => {
    await expect(renderJob(record({ status: 'COMPLETED' }), sign)).rejects.toThrow('without a stored result');
  });
});
