import { Check, Column, Entity, PrimaryColumn } from 'typeorm';
import { BILLING_SCHEMA } from './billing-schema';

// An account's running totals, kept in the same transaction as every ledger row that moves them, and
// locked (SELECT ... FOR UPDATE) by each of those transactions: the account's entries are serialised.
// The checks make a negative available balance impossible whatever the code does.
@Entity({ schema: BILLING_SCHEMA, name: 'account' })
@Check('CHK_account_held_not_negative', '"held" >= 0')
@Check('CHK_account_available_not_negative', '"balance" >= "held"')
export class AccountEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_account' })
  account_id!: string;

  @Column({ type: 'integer', default: 0 })
  balance!: number;

  @Column({ type: 'integer', default: 0 })
  held!: number;

  @Column({ type: 'timestamptz', precision: 3 })
  updated_at!: Date;
}
