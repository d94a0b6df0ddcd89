import { Logger } from '@nestjs/common';
import type { JetStreamPublisher } from '@vj/messaging';
import type { DataSource } from 'typeorm';
import { OutboxMessageEntity } from '../database/outbox-message.entity';

export interface OutboxRelayOptions {
  pollMs: number;
  batchSize?: number;
}

// Publishes committed outbox rows in order, with their msgId, then marks them published. Rows are
// claimed with FOR UPDATE SKIP LOCKED so several jobs instances never publish the same batch at once;
// if NATS is down the transaction rolls back and the rows are retried on the next tick. A crash between
// publish and commit re-publishes a row, which the stream's msgId dedup drops.
export class OutboxRelay {
  private readonly logger = new Logger(OutboxRelay.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly publisher: JetStreamPublisher,
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
    this.running = this.drain()
      .catch((error: unknown) => this.logger.warn(`outbox publish failed, will retry: ${String(error)}`))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.nudge();
        }
      });
  }

  private async drain(): Promise<void> {
    while (!this.stopped && (await this.publishBatch()) > 0);
  }

  // Returns how many rows were published.
  async publishBatch(): Promise<number> {
    return this.dataSource.transaction(async (tx) => {
      const rows = await tx
        .createQueryBuilder(OutboxMessageEntity, 'outbox')
        .where('outbox.published_at IS NULL')
        .orderBy('outbox.position', 'ASC')
        .limit(this.options.batchSize ?? 100)
        .setLock('pessimistic_write')
        .setOnLocked('skip_locked')
        .getMany();
      for (const row of rows) await this.publisher.publish(row.subject, row.payload, { msgId: row.msg_id });
      if (rows.length) await tx.update(OutboxMessageEntity, rows.map((row) => row.id), { published_at: new Date() });
      return rows.length;
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }
}
