import type { JobError } from '@vj/contracts';
import { JobFailure } from '../errors/job-failure';
import { MediaError } from '../media';

// The job error an exception stands for, or null when it is our own fault (retry it).
export function jobErrorOf(error: unknown): JobError | null {
  if (error instanceof JobFailure || error instanceof MediaError) {
    return { code: error.code, message: error.message, details: error.details };
  }
  return null;
}
