import type { JobType } from './job-type';

// A produced file as the worker stored it; the gateway turns object_key into a presigned URL on read.
export interface StoredFileV1 {
  object_key: string;
  content_type: string;
  file_name: string;
  file_size: number;
}

export type StoredResultV1 =
  | { job_type: Extract<JobType, 'clean-audio-video'>; video: StoredFileV1 }
  | { job_type: Extract<JobType, 'video-background-removal'>; files: StoredFileV1[] };

// Every object a result stored: what deleting the job's files deletes.
export function resultObjectKeys(result: StoredResultV1 | null): string[] {
  if (!result) return [];
  return result.job_type === 'clean-audio-video' ? [result.video.object_key] : result.files.map((file) => file.object_key);
}
