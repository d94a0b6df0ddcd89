import { Logger } from '@nestjs/common';
import { preparedQuery } from '@vj/database';
import { runDetached, runInStoredContext, type StoredContext } from '@vj/observability';
import type { DataSource } from 'typeorm';
import { isPublishOutage } from './publish-outage';

export interface OutboxPublisher {
  publish(subject: string, payload: unknown, options: { msgId: string }): Promise<unknown>;
}

export interface OutboxRelayOptions {
  // The schema whose "outbox" table this relay publishes.
  schema: string;
  pollMs: number;
  batchSize?: number;
  // A claimed row is another instance's until this passes (a relay that died mid-batch).
  claimMs?: number;
  // Publishes that fail while later rows go out before the row is parked (and logged) for an operator.
  maxFailures?: number;
  // Published rows are deleted after this: long past JetStream's 2 minute dedup window.
  keepPublishedMs?: number;
}

interface Row {
  id: string;
  subject: string;
  msg_id: string;
  payload: unknown;
  context: StoredContext | null;
}

// Publishes committed outbox rows, oldest first, with their msgId (decision 0029). Rows are claimed in
// a short transaction (FOR UPDATE SKIP LOCKED, a lease), published with no transaction open, then marked
// published: several instances share the work, a slow NATS holds no database lock, and a relay that dies
// mid-batch leaves rows another takes after the lease (a second publish is dropped by the stream's msgId
// dedup). A batch's publishes are sent together, in order, and their acknowledgements awaited
// together (decision 0052). Each row is published in the context its writer stored (request id,
// trace). A row that fails while other rows go out is poisoned: counted, and parked after
// maxFailures, so it never blocks the others. When NATS itself is down every row fails: nothing is
// counted and the batch waits for the next tick.
export class OutboxRelay {
  private readonly logger = new Logger(OutboxRelay.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private lastPrune = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly publisher: OutboxPublisher,
    private readonly options: OutboxRelayOptions,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.nudge(), this.options.pollMs);
    this.nudge();
  }

  // Called after a commit that wrote outbox rows, so messages leave without waiting for the poll.
  nudge(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    // Detached: the relay works for every writer, not for the request whose commit nudged it.
    this.running = runDetached(() => this.drain())
      .catch((error: unknown) => this.logger.warn(`outbox of ${this.options.schema}: publish failed, will retry: ${String(error)}`))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.nudge();
        }
      });
  }

  // Batch after batch while they come back full: a partial batch was all there was (a commit meanwhile
  // nudges the relay again), so no claim is spent finding nothing.
  private async drain(): Promise<void> {
    while (!this.stopped && (await this.publishBatch()) >= this.batchSize());
    if (Date.now() - this.lastPrune > this.keepPublishedMs() / 4) {
      this.lastPrune = Date.now();
      await this.prune();
    }
  }

  // Returns how many rows were published.
  async publishBatch(): Promise<number> {
    const rows = await this.claim();
    // Each publish is written to the connection as it is called, so the stream stores the rows in the
    // order they were claimed; one round trip for the batch instead of one a row.
    const outcomes = await Promise.allSettled(rows.map((row) => runInStoredContext(row.context, () => this.publisher.publish(row.subject, row.payload, { msgId: row.msg_id }))));
    const published = rows.filter((_, i) => outcomes[i]!.status === 'fulfilled').map((row) => row.id);
    const failed = rows.flatMap((row, i) => {
      const outcome = outcomes[i]!;
      return outcome.status === 'rejected' ? [{ row, error: outcome.reason as unknown }] : [];
    });
    await this.markPublished(published);
    // Rows that failed while others went out are poisoned: counted, and parked after maxFailures. Not
    // when their stream was out of reach (isPublishOutage): the others may have gone to another stream.
    await this.recordFailures(failed, published.length > 0);
    await this.release(rows.filter((row) => !published.includes(row.id)).map((row) => row.id));
    if (failed.length && !published.length) throw failed[0].error;
    return published.length;
  }

  private async claim(): Promise<Row[]> {
    const { schema } = this.options;
    // Prepared: the claim runs on every nudge, and planning it cost more than running it (decision 0054).
    const claimed = await preparedQuery<Row & { position: string; failing: boolean }>(
      this.dataSource,
      `UPDATE "${schema}"."outbox" SET "claimed_until" = now() + make_interval(secs => $2::float8 / 1000)
        WHERE "id" IN (
          SELECT "id" FROM "${schema}"."outbox"
           WHERE "published_at" IS NULL AND "parked_at" IS NULL AND ("claimed_until" IS NULL OR "claimed_until" < now())
           ORDER BY ("last_error" IS NOT NULL), "position" LIMIT $1 FOR UPDATE SKIP LOCKED)
        RETURNING "id", "subject", "msg_id", "payload", "context", "position", ("last_error" IS NOT NULL) AS "failing"`,
      [this.batchSize(), this.options.claimMs ?? 30_000],
    );
    // Rows that failed before go last: a poisoned row never holds the ones behind it.
    return claimed.sort((a, b) => Number(a.failing) - Number(b.failing) || Number(a.position) - Number(b.position));
  }

  private async markPublished(ids: string[]): Promise<void> {
    if (!ids.length) return;
    await preparedQuery(this.dataSource, `UPDATE "${this.options.schema}"."outbox" SET "published_at" = now(), "claimed_until" = NULL WHERE "id" = ANY($1)`, [ids]);
  }

  private async release(ids: string[]): Promise<void> {
    if (!ids.length) return;
    await this.dataSource.query(`UPDATE "${this.options.schema}"."outbox" SET "claimed_until" = NULL WHERE "id" = ANY($1)`, [ids]);
  }

  // Every failure is noted; it counts towards parking only when other rows went out in the same batch
  // and the failure is the message's own, not an outage of the way to its stream.
  private async recordFailures(failed: { row: Row; error: unknown }[], othersWentOut: boolean): Promise<void> {
    const maxFailures = this.options.maxFailures ?? 5;
    for (const { row, error } of failed) {
      const counts = othersWentOut && !isPublishOutage(error);
      const [parked] = rowsOf<{ parked_at: Date | null }>(
        await this.dataSource.query(
          `UPDATE "${this.options.schema}"."outbox" SET "failures" = "failures" + $4, "last_error" = $2,
                  "parked_at" = CASE WHEN "failures" + $4 >= $3 THEN now() ELSE NULL END
            WHERE "id" = $1 RETURNING "parked_at"`,
          [row.id, String(error), maxFailures, counts ? 1 : 0],
        ),
      );
      if (!counts) continue;
      if (parked?.parked_at) this.logger.error(`outbox of ${this.options.schema}: parked ${row.subject} (${row.msg_id}) after ${maxFailures} failed publishes: ${String(error)}`);
      else this.logger.warn(`outbox of ${this.options.schema}: ${row.subject} (${row.msg_id}) failed while later rows went out: ${String(error)}`);
    }
  }

  private batchSize(): number {
    return this.options.batchSize ?? 100;
  }

  private keepPublishedMs(): number {
    return this.options.keepPublishedMs ?? 3_600_000;
  }

  // Published rows are done with once the stream's dedup window is long past.
  async prune(): Promise<number> {
    const result: [unknown, number] = await this.dataSource.query(
      `DELETE FROM "${this.options.schema}"."outbox" WHERE "published_at" < now() - make_interval(secs => $1::float8 / 1000)`,
      [this.keepPublishedMs()],
    );
    return result[1];
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }
}

// TypeORM answers an UPDATE or DELETE ... RETURNING with [rows, affected], a SELECT with the rows.
function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as T[];
}
