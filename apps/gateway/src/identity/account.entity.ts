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
}
