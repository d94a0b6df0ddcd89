import type { JobType, LedgerEntryKind } from '@vj/contracts';
import { Check, Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BILLING_SCHEMA } from './billing-schema';

// Append-only: rows are inserted, never updated or deleted. `seq` orders an account's entries (the
// account lock serialises them, so balance_after/held_after are the running totals in seq order).
@Entity({ schema: BILLING_SCHEMA, name: 'ledger_entry' })
@Index('UQ_ledger_entry_idempotency_key', ['idempotency_key'], { unique: true })
@Index('UQ_ledger_entry_entry_id', ['entry_id'], { unique: true })
@Index('IDX_ledger_entry_account_seq', ['account_id', 'seq'])
@Index('IDX_ledger_entry_account_kind_created', ['account_id', 'kind', 'created_at'])
@Check('CHK_ledger_entry_credits_positive', '"credits" > 0')
export class LedgerEntryEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS', primaryKeyConstraintName: 'PK_ledger_entry' })
  seq!: string;

  @Column({ type: 'uuid' })
  entry_id!: string;

  @Column({ type: 'uuid' })
  account_id!: string;

  @Column({ type: 'varchar', length: 16 })
  kind!: LedgerEntryKind;

  @Column({ type: 'integer' })
  credits!: number;

  // `<job_id>:<kind>` for a job's entries, `grant:<account_id>:<key>` for grants: a repeat cannot insert.
  @Column({ type: 'varchar', length: 300 })
  idempotency_key!: string;

  @Column({ type: 'uuid', nullable: true })
  job_id!: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  job_type!: JobType | null;

  @Column({ type: 'integer' })
  balance_after!: number;

  @Column({ type: 'integer' })
  held_after!: number;

  // Charges only: the started seconds billed and the price list used.
  @Column({ type: 'integer', nullable: true })
  billed_seconds!: number | null;

  @Column({ type: 'integer', nullable: true })
  price_version!: number | null;

  @Column({ type: 'timestamptz', precision: 3 })
  created_at!: Date;
}
