import { Logger } from '@nestjs/common';
import { RpcError } from '@vj/messaging';
import { setTimeout as sleep } from 'node:timers/promises';

// A service of ours that did not answer (no responders, timed out) or NATS itself gone: not the job's
// fault and not a failed attempt.
export function isDependencyOutage(error: unknown): boolean {
  if (error instanceof RpcError) return error.code === 'unavailable';
  return (error as { name?: unknown } | null)?.name === 'NatsError';
}

const WAITS_MS = [1_000, 2_000, 5_000, 10_000, 15_000];

// Calls `call` until the dependency answers: an outage of the jobs service or billing holds the job
// here (its delivery kept alive), spends no attempt and fails nothing; it resumes when they are back.
// Other errors, and the signal, end the wait.
export async function untilReachable<T>(what: string, call: () => Promise<T>, signal: AbortSignal, logger: Logger): Promise<T> {
  for (let tries = 0; ; tries++) {
    try {
      const value = await call();
      if (tries) logger.log(`${what}: answered again after ${tries} tries`);
      return value;
    } catch (error) {
      if (!isDependencyOutage(error)) throw error;
      if (!tries) logger.warn(`${what}: unavailable (${String(error)}); waiting for it`);
      await sleep(WAITS_MS[Math.min(tries, WAITS_MS.length - 1)], undefined, { signal });
    }
  }
}
