import { JobFailure } from '../errors/job-failure';

// Runs work with the job type's wall-clock limit: past it the work's signal aborts and the job fails
// with `timeout` at once, even if the work is slow to notice.
export async function withTimeLimit<T>(limitMs: number, signal: AbortSignal, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const timer = new AbortController();
  const expired = new JobFailure('timeout', `processing took longer than the ${Math.round(limitMs / 1000)} s limit for this job type`);
  const handle = setTimeout(() => timer.abort(expired), limitMs);
  const combined = AbortSignal.any([signal, timer.signal]);
  const running = work(combined);
  try {
    return await new Promise<T>((resolve, reject) => {
      combined.addEventListener('abort', () => reject(combined.reason), { once: true });
      running.then(resolve, (error: unknown) => reject(timer.signal.aborted && !signal.aborted ? expired : error));
    });
  } finally {
    clearTimeout(handle);
    // The work may still settle after we gave up on it.
    running.catch(() => undefined);
  }
}
