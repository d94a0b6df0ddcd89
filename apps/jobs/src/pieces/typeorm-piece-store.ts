import { PIECED_JOB_TYPE, type SegmentOutputV1 } from '@vj/contracts';
import { isUuid } from '@vj/database';
import { outboxInsertSql, outboxRows } from '@vj/outbox';
import type { DataSource, EntityManager } from 'typeorm';
import { JOBS_SCHEMA } from '../database/jobs-schema';
import type { NewPiece, PieceWork } from './job-piece';
import { pieceMessage, type ReadyPiece } from './piece-messages';
import { pieceProgress, pieceProgressMessage, type PieceState } from './piece-progress';
import type { PieceChange, PieceStore } from './piece-store';

export interface PieceStoreOptions {
  // SEGMENTS_IN_FLIGHT_PER_ACCOUNT: pieces of one account's jobs sent and not done, at most.
  inFlightPerAccount: number;
  now?: () => Date;
}

const PIECE = `"${JOBS_SCHEMA}"."job_piece"`;
const JOB = `"${JOBS_SCHEMA}"."job"`;
const NOTHING: PieceChange = { applied: false, sent: 0 };

export class TypeormPieceStore implements PieceStore {
  private readonly now: () => Date;

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: PieceStoreOptions,
  ) {
    this.now = options.now ?? (() => new Date());
  }

  plan(jobId: string, pieces: NewPiece[], deadlineAt: Date): Promise<PieceChange> {
    return this.change(jobId, async (tx, now) => {
      const rows = pieces.map(({ piece, index, work, ready }) => ({ piece, index, work, ready }));
      // The whole job's limits as the plan counted them: each step of the account's pieces gives its
      // open jobs that long again (extendDeadlines).
      const limitSeconds = Math.max(1, Math.ceil((deadlineAt.getTime() - now.getTime()) / 1000));
      const inserted = await count(
        tx,
        `INSERT INTO ${PIECE} ("job_id", "piece", "index", "account_id", "job_created_at", "work", "ready_at", "time_limit_seconds")
         SELECT job."job_id", piece."piece", piece."index", job."account_id", job."created_at", piece."work", CASE WHEN piece."ready" THEN $3::timestamptz END, $4
           FROM ${JOB} job, jsonb_to_recordset($2::jsonb) AS piece("piece" text, "index" int, "work" jsonb, "ready" boolean)
          WHERE job."job_id" = $1 AND job."job_type" = '${PIECED_JOB_TYPE}'
         ON CONFLICT DO NOTHING RETURNING 1`,
        [jobId, JSON.stringify(rows), now, limitSeconds],
      );
      // A plan made again (the job's work delivered again after its plan) changes nothing, but its
      // delivery's started report moved the deadline back to one run's.
      if (inserted === 0) await tx.query(`UPDATE ${JOB} SET "deadline_at" = GREATEST("deadline_at", $2) WHERE "job_id" = $1`, [jobId, deadlineAt]);
      return inserted > 0;
    });
  }

  plateStored(jobId: string, index: number, plateKey: string): Promise<PieceChange> {
    return this.change(jobId, async (tx, now) => {
      const stored = await count(
        tx,
        `UPDATE ${PIECE} SET "plate_key" = $3, "ready_at" = $4 WHERE "job_id" = $1 AND "piece" = 'segment' AND "index" = $2 AND "ready_at" IS NULL RETURNING 1`,
        [jobId, index, plateKey, now],
      );
      if (stored === 0) return false;
      await tx.query(
        `UPDATE ${PIECE} SET "done_at" = $2 WHERE "job_id" = $1 AND "piece" = 'pass' AND "done_at" IS NULL
            AND NOT EXISTS (SELECT 1 FROM ${PIECE} WHERE "job_id" = $1 AND "piece" = 'segment' AND "ready_at" IS NULL)`,
        [jobId, now],
      );
      return true;
    });
  }

  segmentDone(jobId: string, index: number, output: SegmentOutputV1): Promise<PieceChange> {
    return this.change(jobId, async (tx, now) => {
      const done = await count(
        tx,
        `UPDATE ${PIECE} SET "output" = $3, "done_at" = $4 WHERE "job_id" = $1 AND "piece" = 'segment' AND "index" = $2 AND "done_at" IS NULL RETURNING 1`,
        [jobId, index, JSON.stringify(output), now],
      );
      if (done === 0) return false;
      await tx.query(
        `UPDATE ${PIECE} SET "ready_at" = $2 WHERE "job_id" = $1 AND "piece" = 'join' AND "ready_at" IS NULL
            AND NOT EXISTS (SELECT 1 FROM ${PIECE} WHERE "job_id" = $1 AND "piece" = 'segment' AND "done_at" IS NULL)`,
        [jobId, now],
      );
      return true;
    });
  }

  // One short statement for a job that had no pieces, which is every job but a long background
  // removal; a job with some has them closed under its account's lock, which a plan also takes.
  async jobEnded(jobId: string): Promise<PieceChange> {
    if (!isUuid(jobId)) return NOTHING;
    const [owner] = (await this.dataSource.query(`SELECT DISTINCT "account_id" FROM ${PIECE} WHERE "job_id" = $1 AND "done_at" IS NULL`, [jobId])) as { account_id: string }[];
    if (!owner) return NOTHING;
    return this.dataSource.transaction(async (tx) => {
      await lockAccount(tx, owner.account_id);
      const now = this.now();
      const closed = await count(tx, `UPDATE ${PIECE} SET "done_at" = $2 WHERE "job_id" = $1 AND "done_at" IS NULL RETURNING 1`, [jobId, now]);
      const sent = await this.send(tx, owner.account_id, now);
      if (sent > 0) await extendDeadlines(tx, owner.account_id, now);
      return { applied: closed > 0, sent };
    });
  }

  async sendWaiting(): Promise<number> {
    const accounts = (await this.dataSource.query(
      `SELECT DISTINCT piece."account_id" FROM ${PIECE} piece JOIN ${JOB} job ON job."job_id" = piece."job_id"
        WHERE piece."done_at" IS NULL AND piece."sent_at" IS NULL AND piece."ready_at" IS NOT NULL AND job."status" = 'PROCESSING' LIMIT 1000`,
    )) as { account_id: string }[];
    let sent = 0;
    for (const { account_id } of accounts) sent += await this.sendFor(account_id);
    return sent;
  }

  private sendFor(accountId: string): Promise<number> {
    return this.dataSource.transaction(async (tx) => {
      await lockAccount(tx, accountId);
      const now = this.now();
      const sent = await this.send(tx, accountId, now);
      if (sent > 0) await extendDeadlines(tx, accountId, now);
      return sent;
    });
  }

  // A change to a job still PROCESSING, and the sends it allows. The status is read under the
  // account's lock, which jobEnded also takes once it finds open pieces. A plan committed just after
  // jobEnded looked leaves its rows open; they never count (only PROCESSING jobs' pieces do), and the
  // next sweep sends what they held back.
  private async change(jobId: string, apply: (tx: EntityManager, now: Date) => Promise<boolean>): Promise<PieceChange> {
    if (!isUuid(jobId)) return NOTHING;
    return this.dataSource.transaction(async (tx) => {
      const [owner] = (await tx.query(`SELECT "account_id" FROM ${JOB} WHERE "job_id" = $1`, [jobId])) as { account_id: string }[];
      if (!owner) return NOTHING;
      await lockAccount(tx, owner.account_id);
      const [job] = (await tx.query(`SELECT "job_id", "account_id", "attempts" FROM ${JOB} WHERE "job_id" = $1 AND "status" = 'PROCESSING'`, [jobId])) as {
        job_id: string;
        account_id: string;
        attempts: number;
      }[];
      if (!job) return NOTHING;
      const now = this.now();
      const applied = await apply(tx, now);
      if (applied) await this.publishProgress(tx, job, now);
      const sent = await this.send(tx, owner.account_id, now);
      if (applied || sent > 0) await extendDeadlines(tx, owner.account_id, now);
      return { applied, sent };
    });
  }

  // Each change to a job's pieces moves its progress, which followers of the job read as a worker's.
  private async publishProgress(tx: EntityManager, job: { job_id: string; account_id: string; attempts: number }, now: Date): Promise<void> {
    const pieces = (await tx.query(`SELECT "work", "ready_at", "done_at" FROM ${PIECE} WHERE "job_id" = $1`, [job.job_id])) as PieceState[];
    await tx.query(outboxInsertSql(JOBS_SCHEMA, 1), [JSON.stringify(outboxRows([pieceProgressMessage(job, pieceProgress(pieces), now)], now))]);
  }

  // The account's ready pieces, oldest job first and in each job pass, segments, join, while fewer
  // than its cap are in flight; each marked sent with its message in the outbox.
  private async send(tx: EntityManager, accountId: string, now: Date): Promise<number> {
    const [{ in_flight: inFlight }] = (await tx.query(
      `SELECT count(*)::int AS "in_flight" FROM ${PIECE} piece JOIN ${JOB} job ON job."job_id" = piece."job_id"
        WHERE piece."account_id" = $1 AND piece."done_at" IS NULL AND piece."sent_at" IS NOT NULL AND job."status" = 'PROCESSING'`,
      [accountId],
    )) as [{ in_flight: number }];
    const room = this.options.inFlightPerAccount - inFlight;
    if (room <= 0) return 0;
    const rows = (await tx.query(
      `SELECT piece."job_id", piece."index", piece."work", piece."plate_key", piece."sends", job."options", job."created_at"
         FROM ${PIECE} piece JOIN ${JOB} job ON job."job_id" = piece."job_id"
        WHERE piece."account_id" = $1 AND piece."done_at" IS NULL AND piece."sent_at" IS NULL AND piece."ready_at" IS NOT NULL AND job."status" = 'PROCESSING'
        ORDER BY piece."job_created_at", piece."job_id", CASE piece."piece" WHEN 'pass' THEN 0 WHEN 'segment' THEN 1 ELSE 2 END, piece."index"
        LIMIT $2`,
      [accountId, room],
    )) as ReadyRow[];
    if (rows.length === 0) return 0;
    const ready: ReadyPiece[] = [];
    for (const row of rows) {
      const outputs = row.work.piece === 'join' ? await segmentOutputs(tx, row.job_id) : [];
      ready.push({
        job_id: row.job_id,
        account_id: accountId,
        options: row.options,
        job_created_at: row.created_at,
        index: row.index,
        work: row.work,
        plate_key: row.plate_key,
        send: row.sends + 1,
        outputs,
      });
    }
    await tx.query(
      `UPDATE ${PIECE} piece SET "sent_at" = $1, "sends" = piece."sends" + 1
         FROM unnest($2::uuid[], $3::text[], $4::int[]) AS sent("job_id", "piece", "index")
        WHERE (piece."job_id", piece."piece", piece."index") = (sent."job_id", sent."piece", sent."index")`,
      [now, ready.map((piece) => piece.job_id), ready.map((piece) => piece.work.piece), ready.map((piece) => piece.index)],
    );
    await tx.query(outboxInsertSql(JOBS_SCHEMA, 1), [JSON.stringify(outboxRows(ready.map(pieceMessage), now))]);
    return ready.length;
  }
}

interface ReadyRow {
  job_id: string;
  index: number;
  work: PieceWork;
  plate_key: string | null;
  sends: number;
  options: ReadyPiece['options'];
  created_at: Date;
}

// A long job's pieces may wait behind its account's other jobs (the cap on pieces in flight), so its
// deadline is not one run's: while the account's pieces move, each of its jobs with pieces open keeps
// its whole job's limits from now. A job whose account stops moving for that long times out.
function extendDeadlines(tx: EntityManager, accountId: string, now: Date): Promise<unknown> {
  return tx.query(
    `UPDATE ${JOB} job SET "deadline_at" = GREATEST(job."deadline_at", $2::timestamptz + make_interval(secs => open."limit"))
       FROM (SELECT "job_id", max("time_limit_seconds") AS "limit" FROM ${PIECE} WHERE "account_id" = $1 AND "done_at" IS NULL GROUP BY "job_id") open
      WHERE job."job_id" = open."job_id" AND job."status" = 'PROCESSING'`,
    [accountId, now],
  );
}

// Per account, so one account's reports wait on each other's sends and never on another account's.
function lockAccount(tx: EntityManager, accountId: string): Promise<unknown> {
  return tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('job_piece:' || $1, 0))`, [accountId]);
}

async function segmentOutputs(tx: EntityManager, jobId: string): Promise<SegmentOutputV1[]> {
  const rows = (await tx.query(`SELECT "output" FROM ${PIECE} WHERE "job_id" = $1 AND "piece" = 'segment' ORDER BY "index"`, [jobId])) as { output: SegmentOutputV1 }[];
  return rows.map((row) => row.output);
}

// The rows a data-changing statement with RETURNING touched.
async function count(tx: EntityManager, statement: string, params: unknown[]): Promise<number> {
  const [row] = (await tx.query(`WITH changed AS (${statement}) SELECT count(*)::int AS "n" FROM changed`, params)) as [{ n: number }];
  return row.n;
}
