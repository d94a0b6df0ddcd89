import { createDatabase } from '@vj/local-stack';
import { DataSource } from 'typeorm';
import { ifAdvisoryLockFree, withAdvisoryLock } from './advisory-lock';

describe('advisory locks: one instance at a time', () => {
  let first: DataSource;
  let second: DataSource;

  beforeAll(async () => {
    const url = await createDatabase(process.env.TEST_DATABASE_ADMIN_URL!, 'advisory_locks');
    [first, second] = await Promise.all([new DataSource({ type: 'postgres', url }).initialize(), new DataSource({ type: 'postgres', url }).initialize()]);
  });

  afterAll(async () => {
    await first?.destroy();
    await second?.destroy();
  });

  it('lets one of two instances sweep; the other skips its turn, and may go once the first is done', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const sweeping = ifAdvisoryLockFree(first, 42, async () => {
      await held;
      return 'swept';
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await ifAdvisoryLockFree(second, 42, async () => 'also swept')).toBeNull();
    release();
    expect(await sweeping).toBe('swept');
    expect(await ifAdvisoryLockFree(second, 42, async () => 'swept later')).toBe('swept later');
  });

  it('makes a second migrator wait for the first, never run beside it', async () => {
    const order: string[] = [];
    const run = (dataSource: DataSource, name: string) =>
      withAdvisoryLock(dataSource, 43, async () => {
        order.push(`${name} start`);
        await new Promise((resolve) => setTimeout(resolve, 150));
        order.push(`${name} end`);
      });
    await Promise.all([run(first, 'a'), new Promise((resolve) => setTimeout(resolve, 30)).then(() => run(second, 'b'))]);
    expect(order).toEqual(['a start', 'a end', 'b start', 'b end']);
  });
});
