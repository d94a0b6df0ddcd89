import { renderJob, type StoredFileV1 } from '@vj/contracts';
import { RpcError, type JobsRpcClient } from '@vj/messaging';
import type { ObjectStorage } from '@vj/storage';
import type { JobReader } from './job-event-intake';

// The job as GET /v1/{type}/{job_id} answers it: the jobs service's record, rendered by the same
// function as the gateway's, with result URLs presigned for RESULT_URL_TTL_SECONDS.
export class RenderedJobReader implements JobReader {
  constructor(
    private readonly jobs: JobsRpcClient,
    private readonly storage: ObjectStorage,
    private readonly urlTtlSeconds: number,
  ) {}

  async read(accountId: string, jobId: string): Promise<unknown> {
    try {
      const record = await this.jobs.call('get', { version: 1, account_id: accountId, job_id: jobId });
      return await renderJob(record, (file: StoredFileV1) => this.storage.presignGet(file.object_key, this.urlTtlSeconds, file.file_name, file.content_type));
    } catch (error) {
      // Deleted by its owner before the event was taken: nothing to tell anyone about.
      if (error instanceof RpcError && error.code === 'not_found') return null;
      throw error;
    }
  }
}
