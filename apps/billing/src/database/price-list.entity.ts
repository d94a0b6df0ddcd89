import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { JobTypePrices } from '../pricing/price-list';
import { BILLING_SCHEMA } from './billing-schema';

// Every price list ever in force, never changed once written: a hold records the version it quoted and
// the charge prices with the same one.
@Entity({ schema: BILLING_SCHEMA, name: 'price_list' })
export class PriceListEntity {
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'PK_price_list' })
  version!: number;

  @Column({ type: 'jsonb' })
  prices!: JobTypePrices;

  @Column({ type: 'timestamptz', precision: 3 })
  created_at!: Date;
}
