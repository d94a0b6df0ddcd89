import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AccountEntity } from './account.entity';
import { IDENTITY_SCHEMA } from './identity-schema';

@Entity({ schema: IDENTITY_SCHEMA, name: 'api_keys' })
export class ApiKeyEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_api_keys' })
  id!: string;

  @Index('IDX_api_keys_account_id')
  @Column('uuid')
  account_id!: string;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'FK_api_keys_account_id' })
  account?: AccountEntity;

  // SHA-256 hex of the key; the key itself is never stored.
  @Index('UQ_api_keys_key_hash', { unique: true })
  @Column({ type: 'char', length: 64 })
  key_hash!: string;

  // The key's first characters, so an operator can tell keys apart without the secret.
  @Column({ type: 'varchar', length: 16 })
  key_prefix!: string;

  // The operator's label ("ci", "production"); null for the key an account was created with.
  @Column({ type: 'varchar', length: 100, nullable: true })
  name!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created_at!: Date;

  // Kept, not deleted: the listing shows when a key stopped working.
  @Column({ type: 'timestamptz', nullable: true })
  revoked_at!: Date | null;
}
