import { rm } from 'node:fs/promises';
import type { JobInputV1 } from '@vj/contracts';
import { ObjectTooLargeError, type ObjectStorage } from '@vj/storage';
import { JobFailure } from '../errors/job-failure';
import type { FetchedInput } from './fetched-input';
import { TransloadError } from './transload-error';

export type UploadInput = Pick<Extract<JobInputV1, { kind: 'upload' }>, 'object_key' | 'etag'>;

// The input of a job made from POST /v1/uploads: the bytes are already in our bucket. A job created
// since uploads are pinned carries the object's ETag: the bytes read must be that object, so an upload
// PUT again after the create is never processed in place of the one quoted. A single PUT's ETag is the
// MD5 of its bytes, and those are hashed; a store whose ETags are not (server-side encryption with
// KMS) has its ETag compared before and after the download instead.
const PLAIN_MD5 = /^[0-9a-f]{32}$/i;
export async function fetchUpload(
  storage: Pick<ObjectStorage, 'stat' | 'downloadToFile'>,
  upload: UploadInput,
  destPath: string,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<FetchedInput> {
  const before = await storage.stat(upload.object_key);
  if (!before) {
    throw new TransloadError('upload_missing', 'the upload has no content: PUT the file to upload_url before creating the job (or it was deleted)');
  }
  try {
    const { size, md5, sha256 } = await storage.downloadToFile(upload.object_key, destPath, maxBytes, signal);
    if (upload.etag !== undefined) {
      const same = PLAIN_MD5.test(upload.etag) ? md5 === upload.etag.toLowerCase() : before.etag === upload.etag && (await storage.stat(upload.object_key))?.etag === upload.etag;
      if (!same) throw uploadChanged();
    }
    return { path: destPath, size, sha256 };
  } catch (error) {
    await rm(destPath, { force: true });
    if (error instanceof ObjectTooLargeError) throw new TransloadError('too_large', error.message);
    throw error;
  }
}

function uploadChanged(): JobFailure {
  return new JobFailure('input_validation', 'The upload changed after the job was created', [
    { type: 'upload_changed', message: 'the uploaded file was replaced after the job was created; upload it again and create a new job', field: 'video_url' },
  ]);
}
