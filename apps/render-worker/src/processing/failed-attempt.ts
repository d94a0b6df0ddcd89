import type { JobError } from '@vj/contracts';
import { MaxProcessingTimeExceeded } from '@vj/messaging';
import { DoubtfulMediaError } from '../media/media-error';
import { JobEnded, WorkAbandoned } from './cancellation-registry';
import { isDependencyOutage } from './dependency-outage';
import { jobErrorOf } from './job-error-of';

// What a delivery that threw comes to, decided from why it stopped and what it threw (decision 0027):
// pure, so every case is a table row in its spec; ProcessJobUseCase carries it out.
export type FailedAttempt =
  // The jobs service already made the job final (CANCELLED, FAILED...): nothing to report.
  | { kind: 'ended'; reason: JobEnded }
  // Shutdown: not a failed attempt; the message goes back to the stream at once.
  | { kind: 'abandoned'; reason: WorkAbandoned }
  // The delivery outlived every limit of the job: it fails with timeout.
  | { kind: 'timed_out'; reason: MaxProcessingTimeExceeded }
  // A dependency went away mid-run: back to the stream after a while, no attempt spent.
  | { kind: 'outage' }
  // Our failure (or a doubtful one) with attempts left: counted, then retried. `unexpected` errors
  // are logged with their stack.
  | { kind: 'retry'; unexpected: boolean }
  // The input's fault, or our failure on the last attempt.
  | { kind: 'fail'; error: JobError; unexpected: boolean };

export interface AttemptCount {
  // Attempts that failed for a reason of ours before this one, as the jobs service says.
  failedBefore: number;
  isLastDelivery: boolean;
}

export function failedAttempt(abortReason: unknown, error: unknown, attempt: AttemptCount, maxFailedAttempts: number): FailedAttempt {
  if (abortReason instanceof JobEnded) return { kind: 'ended', reason: abortReason };
  if (abortReason instanceof WorkAbandoned) return { kind: 'abandoned', reason: abortReason };
  if (abortReason instanceof MaxProcessingTimeExceeded) return { kind: 'timed_out', reason: abortReason };
  if (isDependencyOutage(error)) return { kind: 'outage' };
  const lastAttempt = attempt.failedBefore + 1 >= maxFailedAttempts || attempt.isLastDelivery;
  // Maybe the input's fault, maybe ours: another attempt tells.
  if (error instanceof DoubtfulMediaError && !lastAttempt) return { kind: 'retry', unexpected: false };
  const jobError = jobErrorOf(error);
  if (jobError) return { kind: 'fail', error: jobError, unexpected: false };
  if (!lastAttempt) return { kind: 'retry', unexpected: true };
  return { kind: 'fail', error: { code: 'generation_failed', message: `Processing failed after ${attempt.failedBefore + 1} attempts`, details: null }, unexpected: true };
}
