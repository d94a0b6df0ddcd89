import type { WebhookDeliveryState, WebhookEventType } from '@vj/contracts';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { WEBHOOKS_SCHEMA } from './webhooks-schema';

// One event for one endpoint, written in the transaction that takes the event, so none is lost; the
// dispatcher claims due rows (FOR UPDATE SKIP LOCKED). source_id (the event's id) + endpoint makes a
// redelivered event write nothing.
@Entity({ schema: WEBHOOKS_SCHEMA, name: 'delivery' })
@Index('UQ_delivery_source_endpoint', ['source_id', 'endpoint_id'], { unique: true })
@Index('IDX_delivery_due', ['next_attempt_at'], { where: 'next_attempt_at IS NOT NULL' })
// Delivered and given-up rows, by age, for the retention sweep.
@Index('IDX_delivery_settled', ['created_at'], { where: 'next_attempt_at IS NULL' })
@Index('IDX_delivery_endpoint_created', ['endpoint_id', 'created_at'])
export class WebhookDeliveryEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_delivery' })
  delivery_id!: string;

  @Column({ type: 'uuid' })
  endpoint_id!: string;

  @Column({ type: 'varchar', length: 200 })
  source_id!: string;

  @Column({ type: 'varchar', length: 32 })
  event_type!: WebhookEventType;

  @Column({ type: 'uuid' })
  job_id!: string;

  // The body as first rendered: every attempt sends the same bytes (so signatures and dedupe hold).
  @Column({ type: 'text' })
  body!: string;

  @Column({ type: 'varchar', length: 16 })
  state!: WebhookDeliveryState;

  @Column({ type: 'integer', default: 0 })
  failed_attempts!: number;

  // Null once delivered or given up.
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  next_attempt_at!: Date | null;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  claimed_until!: Date | null;

  @Column({ type: 'timestamptz', precision: 3 })
  created_at!: Date;
}
