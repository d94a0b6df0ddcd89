import { createHash } from 'node:crypto';
import { QueryFailedError, type DataSource, type EntityManager } from 'typeorm';
import { isDatabaseOutage } from './database-outage';

type PgQuery = { name: string; text: string; values: unknown[] };

// The node-postgres client under TypeORM: the pool, or the connection a transaction holds.
interface PgQueryable {
  query(config: PgQuery): Promise<{ rows: unknown[] }>;
}
interface PgPool extends PgQueryable {
  connect(): Promise<PgQueryable & { release(error?: Error): void }>;
  idleCount: number;
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
    const result = await run(clientOf(on), { name: statementName(text), text, values });
    return result.rows as T[];
  } catch (error) {
    throw isServerError(error) ? new QueryFailedError(text, values, error) : error;
  }
}

// On the pool, a connection of its own, given back whole after PostgreSQL refused the statement: the
// pool's own query() closes a connection after any error, which threw away its prepared statements
// with every refusal we raise in SQL (the processing cap's, under a client's load of creates).
async function run(client: PgQueryable | PgPool, query: PgQuery): Promise<{ rows: unknown[] }> {
  if (!('idleCount' in client)) return client.query(query);
  const connection = await client.connect();
  let failure: unknown;
  try {
    return await connection.query(query);
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    connection.release(failure === undefined || (isServerError(failure) && !isDatabaseOutage(failure)) ? undefined : (failure as Error));
  }
}

// An error PostgreSQL sent about the statement (node-postgres' DatabaseError carries its severity).
function isServerError(error: unknown): error is Error {
  return error instanceof Error && 'severity' in error;
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

function clientOf(on: DataSource | EntityManager): PgQueryable | PgPool {
  const manager = 'manager' in on ? on.manager : on;
  const runner = manager.queryRunner as { databaseConnection?: PgQueryable } | undefined;
  if (runner?.databaseConnection) return runner.databaseConnection;
  return (manager.connection.driver as unknown as { master: PgPool }).master;
}
