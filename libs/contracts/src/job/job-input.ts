// Where a job's input video comes from: an upload already in object storage, or a URL to transload.
// An upload carries the ETag and size of the object when the job was created: the worker reads only those
// bytes (absent from jobs created before uploads were frozen).
export type JobInputV1 =
  | { kind: 'upload'; upload_id: string; object_key: string; etag?: string; size?: number }
  | { kind: 'url'; url: string };

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
