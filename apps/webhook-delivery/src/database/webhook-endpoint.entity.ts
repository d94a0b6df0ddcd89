import type { WebhookEventType } from '@vj/contracts';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { WEBHOOKS_SCHEMA } from './webhooks-schema';

// An account's receiver. job_id set: the endpoint of one job only (a create's webhook_url), signed
// with the account's default secret.
@Entity({ schema: WEBHOOKS_SCHEMA, name: 'endpoint' })
@Index('IDX_endpoint_account', ['account_id'], { where: 'job_id IS NULL' })
@Index('UQ_endpoint_job', ['job_id'], { unique: true, where: 'job_id IS NOT NULL' })
export class WebhookEndpointEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_endpoint' })
  endpoint_id!: string;

  @Column({ type: 'uuid' })
  account_id!: string;

  @Column({ type: 'varchar', length: 2048 })
  url!: string;

  @Column({ type: 'jsonb' })
  events!: WebhookEventType[];

  @Column({ type: 'uuid', nullable: true })
  job_id!: string | null;

  // whsec_ secrets; the previous one signs too until previous_secret_expires_at (a rotation's grace).
  @Column({ type: 'varchar', length: 128 })
  secret!: string;

  @Column({ type: 'varchar', length: 128, nullable: true })
  previous_secret!: string | null;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  previous_secret_expires_at!: Date | null;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  disabled_at!: Date | null;

  @Column({ type: 'varchar', length: 200, nullable: true })
  disabled_reason!: string | null;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  deleted_at!: Date | null;

  @Column({ type: 'timestamptz', precision: 3 })
  created_at!: Date;
}
