import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { JOBS_SCHEMA } from './jobs-schema';

// Messages written in the same transaction as the job change they announce; the relay publishes them.
@Entity({ schema: JOBS_SCHEMA, name: 'outbox' })
@Index('IDX_outbox_unpublished', ['published_at', 'position'])
export class OutboxMessageEntity {
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

  @Column({ type: 'timestamptz', precision: 3 })
  created_at!: Date;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  published_at!: Date | null;
}
