import type { JobInputV1, JobType, JobWorkRequestedV1, WorkPayloads } from '@vj/contracts';
import { PermanentMessageError } from '@vj/messaging';

// A work message that cannot be a job of this subject's type is never going to succeed: term it.
export function parseWorkPayload<T extends JobType>(jobType: T, payload: unknown): WorkPayloads[T] {
  const work = payload as Partial<JobWorkRequestedV1> | null;
  const problems = [
    work?.version !== 1 && 'version is not 1',
    work?.job_type !== jobType && `job_type is not ${jobType}`,
    typeof work?.job_id !== 'string' && 'job_id is missing',
    typeof work?.account_id !== 'string' && 'account_id is missing',
    !isJobInput(work?.input) && 'input is missing',
    (typeof work?.options !== 'object' || work.options === null) && 'options are missing',
  ].filter(Boolean);
  if (problems.length) throw new PermanentMessageError(`unusable work message: ${problems.join(', ')}`);
  return work as WorkPayloads[T];
}

function isJobInput(input: Partial<JobInputV1> | undefined): boolean {
  if (input?.kind === 'url' || input?.kind === 'upload') return true;
  // An export (decision 0093) names its source job and the two objects it reads.
  return input?.kind === 'export' && typeof input.source_job_id === 'string' && typeof input.picture?.object_key === 'string' && typeof input.source?.file?.object_key === 'string';
}
