// Where a job's input video comes from: an upload already in object storage, or a URL to transload.
export type JobInputV1 =
  | { kind: 'upload'; upload_id: string; object_key: string }
  | { kind: 'url'; url: string };

// The video_url that POST /v1/uploads hands out; only the account that made the upload can use it.
export const UPLOAD_URL_SCHEME = 'upload:';

export function uploadVideoUrl(uploadId: string): string {
  return `${UPLOAD_URL_SCHEME}//${uploadId}`;
}

export function uploadObjectKey(accountId: string, uploadId: string): string {
  return `uploads/${accountId}/${uploadId}`;
}
