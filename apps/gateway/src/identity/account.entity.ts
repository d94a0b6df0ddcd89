import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { IDENTITY_SCHEMA } from './identity-schema';

@Entity({ schema: IDENTITY_SCHEMA, name: 'accounts' })
export class AccountEntity {
  // Generated in code (randomUUID) so no database extension is needed.
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_accounts' })
  id!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  created_at!: Date;

  // A suspended account's keys answer 401; its jobs were cancelled when it was suspended.
  @Column({ type: 'timestamptz', nullable: true })
  suspended_at!: Date | null;

  // The account's own limits; null takes the deployment's default (RATE_LIMIT_*, ACCOUNT_MAX_PROCESSING_JOBS).
  @Column({ type: 'double precision', nullable: true })
  reads_per_second!: number | null;

  @Column({ type: 'integer', nullable: true })
  read_burst!: number | null;

  @Column({ type: 'double precision', nullable: true })
  writes_per_second!: number | null;

  @Column({ type: 'integer', nullable: true })
  write_burst!: number | null;

  @Column({ type: 'integer', nullable: true })
  max_processing_jobs!: number | null;
}
