import { JobFailure } from '../errors/job-failure';

export interface TimeLimitOptions {
  // After an abort, how long to wait for the work to stop (its child processes to exit) before giving up
  // on it: the caller removes the work's files next.
  settleMs?: number;
}

const DEFAULT_SETTLE_MS = 10_000;

// Runs work with the job type's wall-clock limit: past it the work's signal aborts and the job fails
// with `timeout`. On any abort (limit or caller) it waits, bounded, for the work to settle first, so the
// caller's cleanup never races processes that still write into its temp directory.
export async function withTimeLimit<T>(
  limitMs: number,
  signal: AbortSignal,
  work: (signal: AbortSignal) => Promise<T>,
  { settleMs = DEFAULT_SETTLE_MS }: TimeLimitOptions = {},
): Promise<T> {
  const timer = new AbortController();
  const expired = new JobFailure('timeout', `processing took longer than the ${Math.round(limitMs / 1000)} s limit for this job type`);
  const handle = setTimeout(() => timer.abort(expired), limitMs);
  const combined = AbortSignal.any([signal, timer.signal]);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<'aborted'>((resolve) => {
    onAbort = () => resolve('aborted');
    if (combined.aborted) onAbort();
    else combined.addEventListener('abort', onAbort, { once: true });
  });
  const running = work(combined);
  running.catch(() => undefined);
  try {
    const first = await Promise.race([running.then((value) => ({ value }), (error: unknown) => ({ error })), aborted]);
    if (first === 'aborted') {
      await settledWithin(running, settleMs);
      throw combined.reason;
    }
    if ('error' in first) throw timer.signal.aborted && !signal.aborted ? expired : first.error;
    return first.value;
  } finally {
    clearTimeout(handle);
    if (onAbort) combined.removeEventListener('abort', onAbort);
  }
}

// Resolves when work settles or ms pass, whichever is first, leaving no timer behind.
async function settledWithin(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  try {
    await Promise.race([work.then(noop, noop), elapsed]);
  } finally {
    clearTimeout(timer);
  }
}

function noop(): void {}
