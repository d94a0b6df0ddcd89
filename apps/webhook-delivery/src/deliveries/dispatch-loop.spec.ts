import { DispatchLoop } from './dispatch-loop';

const until = async (condition: () => boolean) => {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
};

describe('DispatchLoop', () => {
  it('runs again at once after a full batch, waits after a short one, and stops without waiting out the idle time', async () => {
    const results = [10, 10, 3];
    let rounds = 0;
    const loop = new DispatchLoop(async () => results[rounds++] ?? 0, { batch: 10, idleMs: 60_000, onError: () => undefined });
    const started = Date.now();
    loop.start();
    await until(() => rounds === 3);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await loop.stop();
    expect(rounds).toBe(3);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('reports a failed round and goes on after the idle time', async () => {
    const errors: unknown[] = [];
    let rounds = 0;
    const loop = new DispatchLoop(
      async () => {
        rounds++;
        if (rounds === 1) throw new Error('database away');
        return 0;
      },
      { batch: 10, idleMs: 20, onError: (error) => errors.push(error) },
    );
    loop.start();
    await until(() => rounds >= 3);
    await loop.stop();
    expect(errors).toEqual([new Error('database away')]);
    expect(rounds).toBeGreaterThanOrEqual(3);
  });

  it('runs a round at once when nudged while idle, and again after a round a nudge came during', async () => {
    let rounds = 0;
    let release: (() => void) | undefined;
    const loop = new DispatchLoop(
      async () => {
        rounds++;
        if (rounds === 2) await new Promise<void>((resolve) => (release = resolve));
        return 0;
      },
      { batch: 10, idleMs: 60_000, onError: () => undefined },
    );
    loop.start();
    await until(() => rounds === 1);
    loop.nudge();
    await until(() => release !== undefined);
    loop.nudge();
    release!();
    await until(() => rounds === 3);
    expect(rounds).toBe(3);
    await loop.stop();
  });
});
