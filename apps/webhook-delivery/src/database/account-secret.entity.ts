import { Column, Entity, PrimaryColumn } from 'typeorm';
import { WEBHOOKS_SCHEMA } from './webhooks-schema';

// An account's default secret: it signs the deliveries of a create's webhook_url (endpoints of one job),
// made on first use, rotatable with a grace like an endpoint's.
@Entity({ schema: WEBHOOKS_SCHEMA, name: 'account_secret' })
export class AccountSecretEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_account_secret' })
  account_id!: string;

  @Column({ type: 'varchar', length: 128 })
  secret!: string;

  @Column({ type: 'varchar', length: 128, nullable: true })
  previous_secret!: string | null;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  previous_secret_expires_at!: Date | null;

  @Column({ type: 'timestamptz', precision: 3 })
  created_at!: Date;
}
