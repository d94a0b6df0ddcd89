import { createDatabase } from '@vj/local-stack';
import { DataSource, QueryFailedError } from 'typeorm';
import { preparedQuery } from './prepared-query';

describe('preparedQuery', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    const url = await createDatabase(process.env.TEST_DATABASE_ADMIN_URL!, 'prepared_queries');
    dataSource = await new DataSource({ type: 'postgres', url, poolSize: 1 }).initialize();
    await dataSource.query('CREATE TABLE item (id int PRIMARY KEY, name text NOT NULL)');
  });

  afterAll(() => dataSource?.destroy());

  const prepared = async (): Promise<string[]> =>
    (await dataSource.query('SELECT statement FROM pg_prepared_statements ORDER BY statement')).map((row: { statement: string }) => row.statement);

  it('runs a statement prepared once per connection and answers its rows', async () => {
    const insert = 'INSERT INTO item (id, name) VALUES ($1, $2) RETURNING id, name';
    expect(await preparedQuery(dataSource, insert, [1, 'one'])).toEqual([{ id: 1, name: 'one' }]);
    expect(await preparedQuery(dataSource, insert, [2, 'two'])).toEqual([{ id: 2, name: 'two' }]);
    // One connection in the pool: the statement was prepared there once, by its text.
    expect(await prepared()).toEqual([insert]);
  });

  it("runs on a transaction's own connection, so it is undone with it", async () => {
    await dataSource
      .transaction(async (manager) => {
        await preparedQuery(manager, 'UPDATE item SET name = $2 WHERE id = $1', [1, 'changed']);
        expect(await manager.query('SELECT name FROM item WHERE id = 1')).toEqual([{ name: 'changed' }]);
        throw new Error('undo');
      })
      .catch(() => undefined);
    expect(await dataSource.query('SELECT name FROM item WHERE id = 1')).toEqual([{ name: 'one' }]);
  });

  it("fails as TypeORM's query() does, with PostgreSQL's error inside", async () => {
    const failure = await preparedQuery(dataSource, 'INSERT INTO item (id, name) VALUES ($1, $2)', [1, 'again']).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(QueryFailedError);
    expect(((failure as QueryFailedError).driverError as { code?: string }).code).toBe('23505');
  });

  it('keeps the connection, and what it prepared, when PostgreSQL refuses a statement', async () => {
    const backend = async () => ((await preparedQuery<{ pid: number }>(dataSource, 'SELECT pg_backend_pid() AS pid', []))[0] as { pid: number }).pid;
    const before = await backend();
    await expect(preparedQuery(dataSource, 'INSERT INTO item (id, name) VALUES ($1, $2)', [1, 'again'])).rejects.toBeInstanceOf(QueryFailedError);
    expect(await backend()).toBe(before);
    expect(await prepared()).toContain('SELECT pg_backend_pid() AS pid');
  });
});
