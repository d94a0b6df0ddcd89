import { Inject, Injectable, Logger } from '@nestjs/common';
import type { JobWorkRequestedV1, StoredExportSourceV1, StoredFileV1 } from '@vj/contracts';
import { RESULT_STORE, type KeptForExports, type ProducedFile, type ResultStore } from './ports';
import { pieceKeys } from '../pieces/piece-files';
import { resultObjectKey } from './stored-result';

// The job whose files are stored: a whole job's work or a piece of a long one.
type StoringJob = Pick<JobWorkRequestedV1, 'account_id' | 'job_id'>;

// Stores a job's produced files. A cancelled job uploads nothing (docs/spec/api-v1.md, "Cancel stops
// the work"): the signal is checked before and after each file, and on an abort (or a failed put) the
// files already stored are removed again.
@Injectable()
export class ResultUploader {
  private readonly logger = new Logger(ResultUploader.name);

  constructor(@Inject(RESULT_STORE) private readonly results: ResultStore) {}

  async upload(job: StoringJob, attempt: number, files: ProducedFile[], signal: AbortSignal): Promise<StoredFileV1[]> {
    const stored: StoredFileV1[] = [];
    const keys: string[] = [];
    try {
      for (const file of files) {
        signal.throwIfAborted();
        const key = resultObjectKey(job.account_id, job.job_id, attempt, file.fileName);
        keys.push(key);
        const { size } = await this.results.putFile(key, file.path, file.contentType);
        stored.push({ object_key: key, content_type: file.contentType, file_name: file.fileName, file_size: size });
        signal.throwIfAborted();
      }
    } catch (error) {
      await this.remove(job, keys);
      throw error;
    }
    return stored;
  }

  // A result's files and what it kept for exports, in one upload (decisions 0093, 0094): every object
  // stored (what a cancel removes), the result's own files, and the export source the kept ones make.
  async uploadWithKept(
    job: StoringJob,
    attempt: number,
    output: { files: ProducedFile[]; kept?: KeptForExports; durationSeconds: number },
    signal: AbortSignal,
  ): Promise<{ stored: StoredFileV1[]; files: StoredFileV1[]; exportSource?: StoredExportSourceV1 }> {
    const kept = Object.entries(output.kept?.files ?? {});
    const stored = await this.upload(job, attempt, [...output.files, ...kept.map(([, file]) => file)], signal);
    const files = stored.slice(0, output.files.length);
    if (!output.kept) return { stored, files };
    const keptStored = Object.fromEntries(kept.map(([field], index) => [field, stored[output.files.length + index]]));
    return { stored, files, exportSource: { ...output.kept.details, ...keptStored, duration_seconds: output.durationSeconds } as StoredExportSourceV1 };
  }

  // A long job's input, which its pieces read (decision 0101); its key.
  async storePieceInput(job: StoringJob, path: string): Promise<string> {
    const key = pieceKeys(job).input;
    await this.results.putFile(key, path, 'application/octet-stream');
    return key;
  }

  // Best effort: a leftover object is only storage, never a result anyone is told about.
  async remove(job: StoringJob, keys: string[]): Promise<void> {
    for (const key of keys) {
      await this.results.remove(key).catch((error: unknown) => this.logger.warn(`job ${job.job_id}: could not remove ${key}: ${String(error)}`));
    }
  }
}
