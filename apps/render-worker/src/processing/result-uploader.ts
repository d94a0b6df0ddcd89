import { Inject, Injectable, Logger } from '@nestjs/common';
import type { JobWorkRequestedV1, StoredFileV1 } from '@vj/contracts';
import { RESULT_STORE, type ProducedFile, type ResultStore } from './ports';
import { resultObjectKey } from './stored-result';

// Stores a job's produced files. A cancelled job uploads nothing (docs/spec/api-v1.md, "Cancel stops
// the work"): the signal is checked before and after each file, and on an abort (or a failed put) the
// files already stored are removed again.
@Injectable()
export class ResultUploader {
  private readonly logger = new Logger(ResultUploader.name);

  constructor(@Inject(RESULT_STORE) private readonly results: ResultStore) {}

  async upload(job: JobWorkRequestedV1, attempt: number, files: ProducedFile[], signal: AbortSignal): Promise<StoredFileV1[]> {
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

  // Best effort: a leftover object is only storage, never a result anyone is told about.
  async remove(job: JobWorkRequestedV1, keys: string[]): Promise<void> {
    for (const key of keys) {
      await this.results.remove(key).catch((error: unknown) => this.logger.warn(`job ${job.job_id}: could not remove ${key}: ${String(error)}`));
    }
  }
}
