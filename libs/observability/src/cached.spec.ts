import { cachedFor } from './cached';

describe('cachedFor', () => {
  it('answers from the last check for the ttl, then checks again', async () => {
    let now = 0;
    let checks = 0;
    const probe = cachedFor(1_000, async () => ++checks, () => now);
    expect(await probe()).toBe(1);
    now = 999;
    expect(await probe()).toBe(1);
    now = 1_000;
    expect(await probe()).toBe(2);
  });

  it('shares one check among concurrent callers', async () => {
    let checks = 0;
    let release: () => void = () => undefined;
    const probe = cachedFor(1_000, () => new Promise<number>((resolve) => (release = () => resolve(++checks))));
    const answers = Promise.all([probe(), probe(), probe()]);
    release();
    expect(await answers).toEqual([1, 1, 1]);
  });

  it('keeps a failed check for the ttl too: a failing dependency is not hammered', async () => {
    let checks = 0;
    const probe = cachedFor(1_000, async () => {
      checks++;
      throw new Error('down');
    });
    await expect(probe()).rejects.toThrow('down');
    await expect(probe()).rejects.toThrow('down');
    expect(checks).toBe(1);
  });
});
