import { CONSUMERS, type JobEventKind } from '@vj/contracts';
import { JobEventsConsumer, type JobEvent, type JobEventContext } from '@vj/job-events';
import { connectNats } from '@vj/messaging';
import { Pool } from 'pg';

// An internal service that keeps a table of each account's jobs by what happened to them, from the
// job event log (libs/job-events). The count and the event's id commit in one transaction, so a
// redelivered event changes nothing: the table stays exact whatever crashes in between.

export interface JobCounts {
  created: number;
  started: number;
  completed: number;
  failed: number;
  cancelled: number;
}

const SCHEMA = `
  CREATE SCHEMA IF NOT EXISTS job_counts;
  CREATE TABLE IF NOT EXISTS job_counts.account_jobs (
    account_id uuid PRIMARY KEY,
    created integer NOT NULL DEFAULT 0,
    started integer NOT NULL DEFAULT 0,
    completed integer NOT NULL DEFAULT 0,
    failed integer NOT NULL DEFAULT 0,
    cancelled integer NOT NULL DEFAULT 0
  );
  CREATE TABLE IF NOT EXISTS job_counts.handled_events (
    event_id text PRIMARY KEY,
    handled_at timestamptz NOT NULL DEFAULT now()
  );
`;

// Each kind is a column (a fixed list: never a name from the event itself).
const COLUMNS: Record<JobEventKind, keyof JobCounts> = { created: 'created', started: 'started', completed: 'completed', failed: 'failed', cancelled: 'cancelled' };

function counter(pool: Pool) {
  return async (event: JobEvent, context: JobEventContext): Promise<void> => {
    const column = COLUMNS[event.kind];
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const fresh = await client.query('INSERT INTO job_counts.handled_events (event_id) VALUES ($1) ON CONFLICT DO NOTHING', [context.eventId]);
      if (fresh.rowCount === 1) {
        await client.query(
          `INSERT INTO job_counts.account_jobs (account_id, ${column}) VALUES ($1, 1)
           ON CONFLICT (account_id) DO UPDATE SET ${column} = job_counts.account_jobs.${column} + 1`,
          [event.payload.account_id],
        );
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  };
}

export interface JobCountsService {
  counts(accountId: string): Promise<JobCounts>;
  stop(): Promise<void>;
}

export async function startJobCounts(config: { natsUrl: string; databaseUrl: string; log?: (line: string) => void }): Promise<JobCountsService> {
  const pool = new Pool({ connectionString: config.databaseUrl, max: 2 });
  await pool.query(SCHEMA);
  const nc = await connectNats({ url: config.natsUrl, name: 'job-counts' });
  const consumer = new JobEventsConsumer(nc, { durable: CONSUMERS.jobCounts, handle: counter(pool), log: config.log });
  await consumer.start();
  return {
    async counts(accountId) {
      const { rows } = await pool.query<JobCounts>('SELECT created, started, completed, failed, cancelled FROM job_counts.account_jobs WHERE account_id = $1', [accountId]);
      return rows[0] ?? { created: 0, started: 0, completed: 0, failed: 0, cancelled: 0 };
    },
    async stop() {
      await consumer.stop();
      await nc.drain();
      await pool.end();
    },
  };
}
