import type { JobErrorCode, JobErrorDetail } from '@vj/contracts';

// A failure that belongs to the job, not to us: it ends the job with this code and is never retried.
export class JobFailure extends Error {
  constructor(
    readonly code: JobErrorCode,
    message: string,
    readonly details: JobErrorDetail[] | null = null,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
