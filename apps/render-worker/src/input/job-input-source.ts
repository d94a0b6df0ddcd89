import { uploadObjectKey, type JobWorkRequestedV1 } from '@vj/contracts';
import type { ObjectStorage } from '@vj/storage';
import { JobFailure } from '../errors/job-failure';
import type { InputSource } from '../processing/ports';
import type { AllowList } from '@vj/egress';
import { fetchExportSource } from './fetch-export-source';
import { fetchUpload } from './fetch-upload';
import type { FetchedInput } from './fetched-input';
import { transload } from './transload';

export interface InputLimits {
  // A URL's body and an export's source.
  maxBytes: number;
  // An upload, which may be multipart and far larger (decision 0099).
  uploadMaxBytes: number;
  timeoutMs: number;
  allowHosts: AllowList;
}

// A job's input is an upload already in our bucket, a URL to transload, or an export's source job's files.
export class JobInputSource implements InputSource {
  constructor(
    private readonly storage: Pick<ObjectStorage, 'stat' | 'downloadToFile'>,
    private readonly limits: InputLimits,
  ) {}

  async fetch(job: JobWorkRequestedV1, destPath: string, signal: AbortSignal): Promise<FetchedInput> {
    const { input } = job;
    if (input.kind === 'url') return transload(input.url, destPath, { ...this.limits, signal });
    if (input.kind === 'export') return fetchExportSource(this.storage, job.account_id, input, destPath, this.limits.maxBytes, signal);
    // Defence in depth: an upload is only ever read from its owner's prefix.
    if (input.object_key !== uploadObjectKey(job.account_id, input.upload_id)) {
      throw new JobFailure('input_validation', 'The upload does not belong to this account', [{ type: 'upload', message: 'unknown upload', field: 'video_url' }]);
    }
    return fetchUpload(this.storage, input, destPath, this.limits.uploadMaxBytes, signal);
  }
}
