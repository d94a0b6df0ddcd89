import type { JobErrorCode, JobErrorDetail } from '@vj/contracts';

// A job-level failure with the code the job will carry (docs/spec/api-v1.md, "Job error codes").
export class MediaError extends Error {
  constructor(
    readonly code: JobErrorCode,
    message: string,
    readonly details: JobErrorDetail[] | null = null,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'MediaError';
  }
}

// Probably the input's fault, but one run cannot tell it from ours (the out-of-memory killer may have
// picked this job's decoder for another's appetite; a decoder may crash once): the job is retried as
// for our own failure, and fails with this code only when it happens again on the last attempt.
export class DoubtfulMediaError extends MediaError {
  constructor(code: JobErrorCode, message: string, details: JobErrorDetail[] | null = null) {
    super(code, message, details);
    this.name = 'DoubtfulMediaError';
  }
}

// Cancellation is not a job failure: the job ends CANCELLED, so it gets its own error.
export class AbortError extends Error {
  constructor(message = 'The operation was aborted', options?: ErrorOptions) {
    super(message, options);
    this.name = 'AbortError';
  }
}

// By name, so Node's own AbortError and DOMException('AbortError') are recognised too.
export function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortError('The job was cancelled', { cause: signal.reason });
}
