import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

// The outbox table of a service's schema: messages written in the same transaction as the change they
// announce, published by OutboxRelay. Each service declares it in its own schema (and migrations).
export function outboxEntity(schema: string) {
  @Entity({ schema, name: 'outbox' })
  @Index('IDX_outbox_unpublished', ['published_at', 'position'])
  class OutboxMessageEntity {
    @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_outbox' })
    id!: string;

    // Insertion order, so the relay publishes a job's messages in the order they were written.
    @Column({ type: 'bigint', generated: 'identity', generatedIdentity: 'ALWAYS', insert: false, update: false })
    position!: string;

    @Column({ type: 'varchar', length: 255 })
    subject!: string;

    @Column({ type: 'varchar', length: 255 })
    msg_id!: string;

    @Column({ type: 'jsonb' })
    payload!: unknown;

    // The writer's request id and trace context, restored when the row is published.
    @Column({ type: 'jsonb', nullable: true })
    context!: Record<string, string> | null;

    @Column({ type: 'timestamptz', precision: 3 })
    created_at!: Date;

    @Column({ type: 'timestamptz', precision: 3, nullable: true })
    published_at!: Date | null;

    // A relay instance's claim on the row while it publishes it, outside any transaction.
    @Column({ type: 'timestamptz', precision: 3, nullable: true })
    claimed_until!: Date | null;

    // Publishes of this row that failed while later rows went out: a poisoned row, parked after a few.
    @Column({ type: 'integer', default: 0 })
    failures!: number;

    @Column({ type: 'text', nullable: true })
    last_error!: string | null;

    @Column({ type: 'timestamptz', precision: 3, nullable: true })
    parked_at!: Date | null;
  }
  return OutboxMessageEntity;
}

export type OutboxMessage = InstanceType<ReturnType<typeof outboxEntity>>;
