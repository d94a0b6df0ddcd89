import { JobFailure } from '../errors/job-failure';
import { withTimeLimit } from './with-time-limit';

const never = (signal: AbortSignal) => new Promise<never>((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('killed'))));

describe('withTimeLimit', () => {
  it('returns the result of work that finishes in time', async () => {
    await expect(withTimeLimit(1_000, new AbortController().signal, async () => 42)).resolves.toBe(42);
  });

  it('fails with timeout and aborts the work when the limit passes', async () => {
    let workSignal: AbortSignal | undefined;
    const error = await withTimeLimit(20, new AbortController().signal, (signal) => {
      workSignal = signal;
      return never(signal);
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobFailure);
    expect((error as JobFailure).code).toBe('timeout');
    expect(workSignal?.aborted).toBe(true);
  });

  it('fails with timeout even when the work ignores its signal', async () => {
    const error = await withTimeLimit(20, new AbortController().signal, () => new Promise(() => undefined)).catch((e: unknown) => e);
    expect((error as JobFailure).code).toBe('timeout');
  });

  it('rejects with the caller abort reason when the caller aborts first', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled');
    setTimeout(() => controller.abort(reason), 10);
    await expect(withTimeLimit(10_000, controller.signal, never)).rejects.toBe(reason);
  });

  it('passes on the work failure itself when there is no timeout', async () => {
    const failure = new Error('boom');
    await expect(withTimeLimit(1_000, new AbortController().signal, async () => Promise.reject(failure))).rejects.toBe(failure);
  });
});
