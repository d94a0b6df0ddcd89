import type { WorkPiece } from '@vj/contracts';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { PieceWork } from '../pieces/job-piece';
import { JOBS_SCHEMA } from './jobs-schema';

// One piece of a long background removal (decision 0101): the plate pass, a segment or the join. Only
// the jobs service reads these rows; the job itself stays one row in `job`.
@Entity({ schema: JOBS_SCHEMA, name: 'job_piece' })
// The account's pieces not done, oldest job first: what it has in flight and what waits to be sent.
@Index('IDX_job_piece_account_open', ['account_id', 'job_created_at'], { where: `"done_at" IS NULL` })
export class JobPieceEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_job_piece' })
  job_id!: string;

  @PrimaryColumn({ type: 'varchar', length: 16, primaryKeyConstraintName: 'PK_job_piece' })
  piece!: WorkPiece;

  // The segment's index; 0 for the pass and the join.
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'PK_job_piece' })
  index!: number;

  @Column({ type: 'uuid' })
  account_id!: string;

  // The job's, so an account's pieces go out oldest job first.
  @Column({ type: 'timestamptz', precision: 3 })
  job_created_at!: Date;

  // The piece's part of its work message, from the plan.
  @Column({ type: 'jsonb' })
  work!: PieceWork;

  // A segment's background plate in the bucket, once the pass stored it.
  @Column({ type: 'text', nullable: true })
  plate_key!: string | null;

  // A segment's files, once done.
  @Column({ type: 'jsonb', nullable: true })
  output!: unknown;

  // When it may be sent: at once for the pass and the first segment, a segment once its plate is
  // stored, the join once every segment is done.
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  ready_at!: Date | null;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  sent_at!: Date | null;

  // The pass once every plate is stored, a segment once its files are, every piece once the job ended.
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  done_at!: Date | null;

  // The whole job's limits as its plan counted them: how long from each step of its account's pieces
  // the job may still take (its deadline moves on by this).
  @Column({ type: 'integer' })
  time_limit_seconds!: number;

  // How many times its work message was written: the last is part of the message's dedup id.
  @Column({ type: 'integer', default: 0 })
  sends!: number;
}
