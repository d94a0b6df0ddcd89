import type { JobRecordV1, StoredResultV1 } from '@vj/contracts';
import { schemaViolations } from '@vj/http-contracts';
import { ApiError } from '../http/api-error';
import type { JobsPort } from './jobs-port';
import { JobReportService } from './job-report.service';

const JOB_ID = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const file = { object_key: 'k', content_type: 'video/mp4', file_name: 'f', file_size: 1 };
const figures = { integrated_lufs: -19, true_peak_dbtp: -1.5, noise_floor_dbfs: -62.3 };

function service(record: Partial<JobRecordV1>): JobReportService {
  const jobs = { get: async () => ({ job_id: JOB_ID, status: 'COMPLETED', input: { kind: 'upload' }, result: null, ...record }) } as unknown as JobsPort;
  return new JobReportService(jobs);
}

// Decision 0096.
describe('JobReportService', () => {
  it("renders a clean-audio job's report, saying whether the picture packets are the source's", async () => {
    const result: StoredResultV1 = {
      job_type: 'clean-audio-video',
      video: file,
      quality: {
        kind: 'clean-audio',
        input: { ...figures, integrated_lufs: -31.2 },
        output: figures,
        audio_offset_ms: 0,
        picture: { source_sha256: 'a'.repeat(64), output_sha256: 'b'.repeat(64) },
      },
    };
    const report = await service({ result }).get('acct', 'clean-audio-video', JOB_ID);
    expect(report).toEqual({
      job_id: JOB_ID,
      input: { ...figures, integrated_lufs: -31.2 },
      output: figures,
      audio_offset_ms: 0,
      picture: { identical: false, source_sha256: 'a'.repeat(64), output_sha256: 'b'.repeat(64) },
    });
    expect(schemaViolations('CleanAudioVideoReport', report)).toEqual([]);
  });

  it('reads a null offset from a result stored before offsets were measured', async () => {
    const result: StoredResultV1 = {
      job_type: 'clean-audio-video',
      video: file,
      quality: { kind: 'clean-audio', input: figures, output: figures, picture: { source_sha256: 'a'.repeat(64), output_sha256: 'a'.repeat(64) } },
    };
    const report = await service({ result }).get('acct', 'clean-audio-video', JOB_ID);
    expect(report).toMatchObject({ audio_offset_ms: null, picture: { identical: true } });
    expect(schemaViolations('CleanAudioVideoReport', report)).toEqual([]);
  });

  it("renders a cut-out's report with the share of frames showing a person", async () => {
    const result: StoredResultV1 = { job_type: 'video-background-removal', files: [file], quality: { kind: 'cutout', frames: 150, frames_with_person: 120, flicker: 0.000_412_345_6 } };
    const report = await service({ job_type: 'video-background-removal', result }).get('acct', 'video-background-removal', JOB_ID);
    expect(report).toEqual({ job_id: JOB_ID, frames: 150, frames_with_person: 120, person_frame_share: 0.8, flicker: 0.000412 });
    expect(schemaViolations('VideoBackgroundRemovalReport', report)).toEqual([]);
  });

  it('answers 409 until the job is COMPLETED, and 404 saying why for one without a report', async () => {
    await expect(service({ status: 'PROCESSING' }).get('acct', 'clean-audio-video', JOB_ID)).rejects.toMatchObject({ status: 409, code: 'conflict' });
    const before = service({ result: { job_type: 'clean-audio-video', video: file } });
    await expect(before.get('acct', 'clean-audio-video', JOB_ID)).rejects.toThrow(/completed before reports/);
    const cutoutExport = service({ job_type: 'video-background-removal', input: { kind: 'export' } as JobRecordV1['input'], result: { job_type: 'video-background-removal', files: [file] } });
    const refused = await cutoutExport.get('acct', 'video-background-removal', JOB_ID).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 404, message: expect.stringContaining('source job') });
  });
});
