import { rm } from 'node:fs/promises';
import { ObjectTooLargeError, type ObjectStorage } from '@vj/storage';
import type { FetchedInput } from './fetched-input';
import { sha256File } from './sha256-file';
import { TransloadError } from './transload-error';

// The input of a job made from POST /v1/uploads: the bytes are already in our bucket.
export async function fetchUpload(
  storage: Pick<ObjectStorage, 'stat' | 'downloadToFile'>,
  objectKey: string,
  destPath: string,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<FetchedInput> {
  if (!(await storage.stat(objectKey))) {
    throw new TransloadError('upload_missing', 'the upload has no content: PUT the file to upload_url before creating the job');
  }
  try {
    const { size } = await storage.downloadToFile(objectKey, destPath, maxBytes, signal);
    return { path: destPath, size, sha256: await sha256File(destPath, signal) };
  } catch (error) {
    await rm(destPath, { force: true });
    if (error instanceof ObjectTooLargeError) throw new TransloadError('too_large', error.message);
    throw error;
  }
}
