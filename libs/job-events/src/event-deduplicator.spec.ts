import { InMemoryDeduplicator } from './event-deduplicator';

describe('InMemoryDeduplicator', () => {
  it('runs the work once per event id, and not at all when it throws (so a retry runs it)', async () => {
    const dedupe = new InMemoryDeduplicator();
    let runs = 0;
    const work = async () => void runs++;
    expect(await dedupe.once('e1', work)).toBe('done');
    expect(await dedupe.once('e1', work)).toBe('duplicate');
    await expect(dedupe.once('e2', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await dedupe.once('e2', work)).toBe('done');
    expect(runs).toBe(2);
  });

  it('forgets the oldest ids past its capacity', async () => {
    const dedupe = new InMemoryDeduplicator(2);
    for (const id of ['a', 'b', 'c']) await dedupe.once(id, async () => undefined);
    expect(await dedupe.once('a', async () => undefined)).toBe('done');
    expect(await dedupe.once('c', async () => undefined)).toBe('duplicate');
  });
});
