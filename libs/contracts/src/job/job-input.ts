import type { StoredExportSourceV1, StoredFileV1 } from './stored-result';

// Where a job's input video comes from: an upload already in object storage, a URL to transload, or
// (an export, decision 0093) a COMPLETED job's own result and what it kept for exports.
// An upload carries the ETag and size of the object when the job was created: the worker reads only those
// bytes (absent from jobs created before uploads were frozen).
export type JobInputV1 = VideoInputV1 | ExportInputV1;

// A video the user gave: what a create takes and what a quote probes.
export type VideoInputV1 = { kind: 'upload'; upload_id: string; object_key: string; etag?: string; size?: number } | { kind: 'url'; url: string };

// An export's input: the pictures (clean audio: the source job's delivered video; background removal:
// its input as fetched) and the stems or matte it kept, all under that job's result prefix in our bucket.
export interface ExportInputV1 {
  kind: 'export';
  source_job_id: string;
  picture: StoredFileV1;
  source: StoredExportSourceV1;
}

// The video_url that POST /v1/uploads hands out; only the account that made the upload can use it.
export const UPLOAD_URL_SCHEME = 'upload:';

export function uploadVideoUrl(uploadId: string): string {
  return `${UPLOAD_URL_SCHEME}//${uploadId}`;
}

export function uploadObjectKey(accountId: string, uploadId: string): string {
  return `uploads/${accountId}/${uploadId}`;
}

const UPLOAD_URL_PATTERN = /^upload:\/\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// upload://<upload_id> exactly as POST /v1/uploads writes it (lower-case).
export function isUploadUrl(value: unknown): value is string {
  return typeof value === 'string' && UPLOAD_URL_PATTERN.test(value);
}

// The upload_id of an upload:// URL that isUploadUrl accepts.
export function uploadIdOf(uploadUrl: string): string {
  return uploadUrl.slice(`${UPLOAD_URL_SCHEME}//`.length);
}
