import { createHash } from 'node:crypto';
import { QueryFailedError, type DataSource, type EntityManager } from 'typeorm';

// The node-postgres client under TypeORM: a pool, or the connection a transaction holds.
interface PgQueryable {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

// Runs one of our fixed statements as a named prepared statement: PostgreSQL parses and plans it once
// per connection instead of on every call. TypeORM sends each statement unnamed, and for ours
// parsing and planning cost more than running them (decision 0054: the outbox claim 215-230 us of
// the server's CPU a call unnamed, 45 us prepared; a job read 80 against 35 us). Only for statements
// whose text is fixed (a few variants at most) and whose plan does not depend on the values: each
// distinct text is kept on every connection that ran it. `on`: the data source, or the manager of a
// transaction (the statement then runs on the transaction's connection). Returns the rows; fails as
// TypeORM's own query() does (QueryFailedError, the driver's error inside).
export async function preparedQuery<T>(on: DataSource | EntityManager, text: string, values: unknown[]): Promise<T[]> {
  try {
    const result = await clientOf(on).query({ name: statementName(text), text, values });
    return result.rows as T[];
  } catch (error) {
    throw error instanceof Error && 'severity' in error ? new QueryFailedError(text, values, error) : error;
  }
}

const names = new Map<string, string>();

// node-postgres refuses one name for two texts, so the name is the text's hash.
function statementName(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `vj_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    names.set(text, name);
  }
  return name;
}

function clientOf(on: DataSource | EntityManager): PgQueryable {
  const manager = 'manager' in on ? on.manager : on;
  const runner = manager.queryRunner as { databaseConnection?: PgQueryable } | undefined;
  if (runner?.databaseConnection) return runner.databaseConnection;
  return (manager.connection.driver as unknown as { master: PgQueryable }).master;
}
