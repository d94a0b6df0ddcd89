import { Inject, Injectable } from '@nestjs/common';
import type { AudioFiguresV1, JobType, StoredQualityV1 } from '@vj/contracts';
import { ApiError } from '../http/api-error';
import { JOBS_PORT, type JobsPort } from './jobs-port';

// GET /v1/{type}/{job_id}/report (decision 0096): a COMPLETED job's quality report, from what its
// worker measured and kept beside the result. Never part of the job object.
export interface CleanAudioVideoReport {
  job_id: string;
  input: AudioFiguresV1;
  output: AudioFiguresV1;
  audio_offset_ms: number | null;
  picture: { identical: boolean; source_sha256: string; output_sha256: string };
}

export interface VideoBackgroundRemovalReport {
  job_id: string;
  frames: number;
  frames_with_person: number;
  person_frame_share: number;
  flicker: number;
}

export type JobReport = CleanAudioVideoReport | VideoBackgroundRemovalReport;

@Injectable()
export class JobReportService {
  constructor(@Inject(JOBS_PORT) private readonly jobs: JobsPort) {}

  async get(accountId: string, jobType: JobType, jobId: string): Promise<JobReport> {
    const record = await this.jobs.get({ version: 1, account_id: accountId, job_id: jobId, job_type: jobType });
    if (record.status !== 'COMPLETED') throw new ApiError(409, 'conflict', `job ${jobId} is ${record.status}: a report comes with COMPLETED`);
    const quality = record.result?.quality;
    if (!quality) {
      const why = record.input.kind === 'export' && jobType === 'video-background-removal' ? 'an export re-encodes its source’s matte: see the source job’s report' : 'it completed before reports';
      throw ApiError.notFound(`job ${jobId} has no quality report: ${why}`);
    }
    return renderReport(jobId, quality);
  }
}

function renderReport(jobId: string, quality: StoredQualityV1): JobReport {
  if (quality.kind === 'cutout') {
    const { frames, frames_with_person, flicker } = quality;
    return { job_id: jobId, frames, frames_with_person, person_frame_share: frames === 0 ? 0 : round(frames_with_person / frames), flicker: round(flicker) };
  }
  const { source_sha256, output_sha256 } = quality.picture;
  // A job stored before offsets were measured has none to show.
  return { job_id: jobId, input: quality.input, output: quality.output, audio_offset_ms: quality.audio_offset_ms ?? null, picture: { identical: source_sha256 === output_sha256, source_sha256, output_sha256 } };
}

// Shares and flicker to six places: more reads as precision the measure does not have.
function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
