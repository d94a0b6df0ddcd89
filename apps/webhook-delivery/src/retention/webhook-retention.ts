import type { DataSource } from 'typeorm';

const BATCH = 1_000;

export interface SweepResult {
  deliveries: number;
  endpoints: number;
}

// Deletes what the account no longer sees a use for: settled deliveries (delivered or given up) with
// their attempts once older than the retention, then the endpoints of one job and the deleted
// endpoints that have nothing left. A copy of a job in a delivery body outlives the job no longer than
// the job's own results do. Batched, so one sweep never holds a long lock; safe on every instance.
export class WebhookRetention {
  constructor(
    private readonly dataSource: DataSource,
    private readonly retentionMs: number,
  ) {}

  async sweep(now: Date): Promise<SweepResult> {
    const cutoff = new Date(now.getTime() - this.retentionMs);
    let deliveries = 0;
    for (;;) {
      const rows = (await this.dataSource.query(
        `WITH gone AS (
           DELETE FROM webhooks.delivery WHERE delivery_id IN (
             SELECT delivery_id FROM webhooks.delivery WHERE next_attempt_at IS NULL AND claimed_until IS NULL AND created_at < $1 LIMIT $2
           ) RETURNING delivery_id
         ), attempts AS (
           DELETE FROM webhooks.attempt WHERE delivery_id IN (SELECT delivery_id FROM gone)
         )
         SELECT count(*)::int AS count FROM gone`,
        [cutoff, BATCH],
      )) as { count: number }[];
      const count = rows[0]?.count ?? 0;
      deliveries += count;
      if (count < BATCH) break;
    }
    // DELETE ... RETURNING answers [rows, affected] through TypeORM's postgres driver.
    const [, endpoints] = (await this.dataSource.query(
      `DELETE FROM webhooks.endpoint e
        WHERE ((e.job_id IS NOT NULL AND e.created_at < $1) OR e.deleted_at < $1)
          AND NOT EXISTS (SELECT 1 FROM webhooks.delivery d WHERE d.endpoint_id = e.endpoint_id)
        RETURNING e.endpoint_id`,
      [cutoff],
    )) as [unknown[], number];
    return { deliveries, endpoints };
  }
}
