import { JobFailure } from '../errors/job-failure';
import { withTimeLimit } from './with-time-limit';

const never = (signal: AbortSignal) => new Promise<never>((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('killed'))));

// Work whose child process takes `stopMs` to exit after the abort, recording when it really settled.
function slowToStop(stopMs: number) {
  const log: string[] = [];
  const work = (signal: AbortSignal) =>
    new Promise<never>((_resolve, reject) =>
      signal.addEventListener('abort', () =>
        setTimeout(() => {
          log.push('work settled');
          reject(new Error('killed'));
        }, stopMs),
      ),
    );
  return { log, work };
}

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

  it('fails with timeout even when the work ignores its signal, after waiting for it no longer than settleMs', async () => {
    const started = Date.now();
    const error = await withTimeLimit(20, new AbortController().signal, () => new Promise(() => undefined), { settleMs: 50 }).catch((e: unknown) => e);
    expect((error as JobFailure).code).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('rejects with the caller abort reason when the caller aborts first', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled');
    setTimeout(() => controller.abort(reason), 10);
    await expect(withTimeLimit(10_000, controller.signal, never)).rejects.toBe(reason);
  });

  it('rejects at once with the reason of a signal that was already aborted, once the work settled', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled');
    controller.abort(reason);
    await expect(withTimeLimit(10_000, controller.signal, async (signal) => signal.throwIfAborted())).rejects.toBe(reason);
  });

  it('waits for aborted work to settle before rejecting, so the caller does not clean up under it', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled');
    const slow = slowToStop(100);
    setTimeout(() => controller.abort(reason), 10);
    await expect(withTimeLimit(10_000, controller.signal, slow.work).finally(() => slow.log.push('rejected'))).rejects.toBe(reason);
    expect(slow.log).toEqual(['work settled', 'rejected']);
  });

  it('waits for the work to settle after the time limit too', async () => {
    const slow = slowToStop(100);
    const error = await withTimeLimit(10, new AbortController().signal, slow.work)
      .finally(() => slow.log.push('rejected'))
      .catch((e: unknown) => e);
    expect((error as JobFailure).code).toBe('timeout');
    expect(slow.log).toEqual(['work settled', 'rejected']);
  });

  it('passes on the work failure itself when there is no timeout', async () => {
    const failure = new Error('boom');
    await expect(withTimeLimit(1_000, new AbortController().signal, async () => Promise.reject(failure))).rejects.toBe(failure);
  });
});
