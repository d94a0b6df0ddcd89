import type { JobErrorCode } from './job-error-code';
import type { JobStatus } from './job-status';

// The public job resources, exactly as docs/spec/video-jobs-resources.md section 2 lists them.

export interface FileObject {
  url: string;
  content_type?: string;
  file_name?: string;
  file_size?: number;
}

export interface JobErrorDetail {
  type: string;
  message: string;
  field?: string;
}

export interface JobError {
  code: JobErrorCode;
  message: string;
  details?: JobErrorDetail[] | null;
}

export interface VideoBackgroundRemovalResult {
  files: FileObject[] | null;
}

export interface CleanAudioVideoResult {
  video: FileObject;
}

interface JobEnvelope<TResult> {
  job_id: string;
  status: JobStatus;
  credits_estimated?: number;
  credits_charged?: number;
  result?: TResult;
  error?: JobError;
}

export type VideoBackgroundRemovalJob = JobEnvelope<VideoBackgroundRemovalResult>;
export type CleanAudioVideoJob = JobEnvelope<CleanAudioVideoResult>;
export type JobObject = VideoBackgroundRemovalJob | CleanAudioVideoJob;
