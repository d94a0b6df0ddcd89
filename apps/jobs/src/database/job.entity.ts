import type { CreditEstimateV1, JobError, JobInputV1, JobOptionsByType, JobStatus, JobType, StoredResultV1 } from '@vj/contracts';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { JOBS_SCHEMA } from './jobs-schema';

// The quote's other fields; its credits live in credits_estimated, which the job object shows.
export type StoredEstimate = Omit<CreditEstimateV1, 'credits_estimated'>;

// Timestamps are kept to the millisecond so a JS Date round-trips exactly (list cursors compare them).
@Entity({ schema: JOBS_SCHEMA, name: 'job' })
// Newest-first listing per account; PostgreSQL scans it backwards for ORDER BY created_at DESC, job_id DESC.
@Index('IDX_job_account_created', ['account_id', 'created_at', 'job_id'])
@Index('IDX_job_status_deadline', ['status', 'deadline_at'])
export class JobEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_job' })
  job_id!: string;

  @Column({ type: 'uuid' })
  account_id!: string;

  @Column({ type: 'varchar', length: 64 })
  job_type!: JobType;

  @Column({ type: 'varchar', length: 16 })
  status!: JobStatus;

  @Column({ type: 'jsonb' })
  input!: JobInputV1;

  @Column({ type: 'jsonb' })
  options!: JobOptionsByType[JobType];

  @Column({ type: 'jsonb', nullable: true })
  result!: StoredResultV1 | null;

  @Column({ type: 'jsonb', nullable: true })
  error!: JobError | null;

  @Column({ type: 'integer', nullable: true })
  credits_estimated!: number | null;

  @Column({ type: 'jsonb', nullable: true })
  estimate!: StoredEstimate | null;

  @Column({ type: 'integer', nullable: true })
  credits_charged!: number | null;

  @Column({ type: 'double precision', nullable: true })
  media_duration_seconds!: number | null;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ type: 'timestamptz', precision: 3 })
  created_at!: Date;

  @Column({ type: 'timestamptz', precision: 3 })
  updated_at!: Date;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  finished_at!: Date | null;

  @Column({ type: 'timestamptz', precision: 3 })
  deadline_at!: Date;

  // When billing held the estimate and the work message was written; null until then, so never twice.
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  funded_at!: Date | null;
}
