import { setTimeout as sleep } from 'node:timers/promises';

// Polls `probe` until it resolves true or the deadline passes.
export async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs = 15_000, intervalMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      if (await probe()) return;
    } catch (error) {
      lastError = error;
    }
    await sleep(intervalMs);
  }
  throw new Error(`${what} was not ready within ${timeoutMs} ms${lastError ? `: ${String(lastError)}` : ''}`);
}
