import { gauge } from './metrics';

// The part of a TypeORM DataSource (or EntityManager) the collector uses.
export interface SqlRunner {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

const oldestAge = () =>
  gauge({ name: 'outbox_oldest_unpublished_age_seconds', help: 'age of the oldest outbox row not published yet (parked rows aside): the outbox lag', labelNames: ['schema'] });
const unpublished = () => gauge({ name: 'outbox_unpublished_messages', help: 'outbox rows waiting to be published (parked rows aside)', labelNames: ['schema'] });
const parked = () => gauge({ name: 'outbox_parked_messages', help: 'outbox rows parked after repeated publish failures: an operator must look', labelNames: ['schema'] });

// The outbox table of any schema (libs/outbox: jobs, billing): one indexed query per scrape.
export function outboxCollector(db: SqlRunner, schema: string): () => Promise<void> {
  return async () => {
    const rows = (await db.query(
      `SELECT count(*) FILTER (WHERE "parked_at" IS NULL)::int AS "unpublished",
              count(*) FILTER (WHERE "parked_at" IS NOT NULL)::int AS "parked",
              coalesce(extract(epoch FROM now() - min("created_at") FILTER (WHERE "parked_at" IS NULL)), 0)::float8 AS "oldest"
         FROM "${schema}"."outbox" WHERE "published_at" IS NULL`,
    )) as { unpublished: number; parked: number; oldest: number }[];
    const [row] = rows;
    oldestAge().set({ schema }, row?.oldest ?? 0);
    unpublished().set({ schema }, row?.unpublished ?? 0);
    parked().set({ schema }, row?.parked ?? 0);
  };
}
