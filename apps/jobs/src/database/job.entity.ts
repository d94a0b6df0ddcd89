import type { JobError, JobInputV1, JobOptionsByType, JobStatus, JobType, StoredResultV1 } from '@vj/contracts';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { Job, StoredEstimate } from '../domain/job';
import { JOBS_SCHEMA } from './jobs-schema';

// Timestamps are kept to the millisecond so a JS Date round-trips exactly (list cursors compare them).
@Entity({ schema: JOBS_SCHEMA, name: 'job' })
// Newest-first listing per account; PostgreSQL scans it backwards for ORDER BY created_at DESC, job_id DESC.
@Index('IDX_job_account_created', ['account_id', 'created_at', 'job_id'])
@Index('IDX_job_status_deadline', ['status', 'deadline_at'])
// The cap on an account's PROCESSING jobs counts these at every create.
@Index('IDX_job_account_processing', ['account_id'], { where: `"status" = 'PROCESSING'` })
// The retention sweeper's two queues (decision 0024): results to expire, inputs to delete.
@Index('IDX_job_results_to_expire', ['finished_at'], { where: `"status" = 'COMPLETED' AND "files_purged_at" IS NULL` })
@Index('IDX_job_inputs_to_purge', ['finished_at'], { where: `"status" <> 'PROCESSING' AND "input_purged_at" IS NULL` })
export class JobEntity implements Job {
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

  // Deliveries started (the last started report's attempt).
  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  // Attempts that failed for a reason of ours and were retried (decision 0027).
  @Column({ type: 'integer', default: 0 })
  failed_attempts!: number;

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

  // DELETE /v1/{type}/{job_id}: the job reads as not found from then on; its row stays for the record.
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  deleted_at!: Date | null;

  // When the result files were deleted (the job deleted, or RESULT_RETENTION_DAYS after it completed).
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  files_purged_at!: Date | null;

  // When the uploaded input was deleted after the job ended (or found to need nothing: a URL input).
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  input_purged_at!: Date | null;
}
