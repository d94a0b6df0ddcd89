import { rm } from 'node:fs/promises';
import type { ExportInputV1 } from '@vj/contracts';
import { ObjectNotFoundError, type ObjectStorage } from '@vj/storage';
import { JobFailure } from '../errors/job-failure';
import { resultPrefix } from '../processing/stored-result';
import type { FetchedInput } from './fetched-input';

// An export's input (decision 0093): the source job's delivered picture to destPath and what it kept
// for exports beside it. Both are our own objects, read only from the source job's result prefix in
// the exporting account: a message naming anything else is refused, whoever wrote it.
export async function fetchExportSource(
  storage: Pick<ObjectStorage, 'downloadToFile'>,
  accountId: string,
  input: ExportInputV1,
  destPath: string,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<FetchedInput> {
  const prefix = resultPrefix(accountId, input.source_job_id);
  const keys = [input.picture.object_key, input.source.file.object_key];
  if (!keys.every((key) => key.startsWith(prefix) && !key.includes('..'))) {
    throw new JobFailure('input_validation', 'The export names files that are not its source job’s', [{ type: 'export', message: 'unknown source files', field: 'job_id' }]);
  }
  const sourcePath = exportSourcePath(destPath);
  // Both at once; either failing removes both files.
  const [picture, source] = await Promise.allSettled([
    storage.downloadToFile(input.picture.object_key, destPath, maxBytes, signal),
    storage.downloadToFile(input.source.file.object_key, sourcePath, maxBytes, signal),
  ]);
  if (picture.status === 'fulfilled' && source.status === 'fulfilled') {
    return { path: destPath, size: picture.value.size, sha256: picture.value.sha256, exportSourcePath: sourcePath };
  }
  await Promise.all([rm(destPath, { force: true }), rm(sourcePath, { force: true })]);
  const error: unknown = picture.status === 'rejected' ? picture.reason : (source as PromiseRejectedResult).reason;
  throw error instanceof ObjectNotFoundError ? sourceGone(input.source_job_id) : error;
}

export function exportSourcePath(destPath: string): string {
  return `${destPath}.export-source`;
}

// The source job's files were deleted, or expired, between the export's create and its run.
function sourceGone(jobId: string): JobFailure {
  return new JobFailure('input_validation', 'The source job’s files were deleted or have expired', [
    { type: 'export_source_gone', message: `job ${jobId} no longer has its files: results are kept for a limited time after a job completes`, field: 'job_id' },
  ]);
}
