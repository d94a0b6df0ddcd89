import { Column, Entity, PrimaryColumn } from 'typeorm';
import { JOBS_SCHEMA } from './jobs-schema';

// One row per (account, Idempotency-Key); the primary key is what stops two concurrent creates.
@Entity({ schema: JOBS_SCHEMA, name: 'idempotency_key' })
export class IdempotencyKeyEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_idempotency_key' })
  account_id!: string;

  @PrimaryColumn({ type: 'varchar', length: 255, primaryKeyConstraintName: 'PK_idempotency_key' })
  key!: string;

  @Column({ type: 'varchar', length: 128 })
  request_hash!: string;

  @Column({ type: 'uuid' })
  job_id!: string;

  @Column({ type: 'timestamptz', precision: 3 })
  created_at!: Date;
}
