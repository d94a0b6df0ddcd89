import type { JobOptionsByType, JobType } from '@vj/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { JobBilling, JobBillingState } from '../job-billing/job-billing';
import { BILLING_SCHEMA } from './billing-schema';

// One row per job, locked while any of the job's events is handled, so the job's events are serialised
// whatever order and however often they arrive. It keeps what is needed to republish a decision's event.
@Entity({ schema: BILLING_SCHEMA, name: 'job_billing' })
export class JobBillingEntity implements JobBilling {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_job_billing' })
  job_id!: string;

  @Column({ type: 'uuid' })
  account_id!: string;

  @Column({ type: 'varchar', length: 64 })
  job_type!: JobType;

  @Column({ type: 'varchar', length: 16 })
  state!: JobBillingState;

  // From the created event: the options price the charge (multipliers), the quote is what is held.
  @Column({ type: 'jsonb', nullable: true })
  options!: JobOptionsByType[JobType] | null;

  @Column({ type: 'integer', nullable: true })
  price_version!: number | null;

  @Column({ type: 'integer', nullable: true })
  credits_estimated!: number | null;

  // Set only when a hold was placed.
  @Column({ type: 'integer', nullable: true })
  credits_held!: number | null;

  // Rejections: what was available when the estimate did not fit.
  @Column({ type: 'integer', nullable: true })
  credits_available!: number | null;

  @Column({ type: 'integer', nullable: true })
  credits_charged!: number | null;

  @Column({ type: 'integer', nullable: true })
  credits_priced!: number | null;

  @Column({ type: 'integer', nullable: true })
  billed_seconds!: number | null;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  decided_at!: Date | null;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  settled_at!: Date | null;
}
