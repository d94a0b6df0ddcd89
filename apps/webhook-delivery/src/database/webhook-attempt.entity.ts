import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { WEBHOOKS_SCHEMA } from './webhooks-schema';

// Every attempt of a delivery, as its owner sees it (GET .../deliveries).
@Entity({ schema: WEBHOOKS_SCHEMA, name: 'attempt' })
@Index('IDX_attempt_delivery', ['delivery_id', 'attempt_seq'])
export class WebhookAttemptEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', primaryKeyConstraintName: 'PK_attempt' })
  attempt_seq!: string;

  @Column({ type: 'uuid' })
  delivery_id!: string;

  @Column({ type: 'timestamptz', precision: 3 })
  attempted_at!: Date;

  @Column({ type: 'integer', nullable: true })
  status_code!: number | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  error!: string | null;

  @Column({ type: 'integer' })
  duration_ms!: number;

  @Column({ type: 'varchar', length: 1024 })
  response_body!: string;
}
