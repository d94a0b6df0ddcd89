import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { IDENTITY_SCHEMA } from './identity-schema';

// One token bucket, shared by every gateway instance. The table is UNLOGGED (see the migration): a
// crash of PostgreSQL refills every bucket, which costs nothing worth a WAL write per request.
@Entity({ schema: IDENTITY_SCHEMA, name: 'rate_limit_buckets' })
export class RateLimitBucketEntity {
  // "<class>:key:<api key id>" or "auth:ip:<address>".
  @PrimaryColumn({ type: 'varchar', length: 200, primaryKeyConstraintName: 'PK_rate_limit_buckets' })
  bucket_key!: string;

  @Column({ type: 'double precision' })
  tokens!: number;

  @Column({ type: 'timestamptz' })
  refilled_at!: Date;

  // When the bucket is full again if nobody takes from it: housekeeping drops it then.
  @Index('IDX_rate_limit_buckets_full_at')
  @Column({ type: 'timestamptz' })
  full_at!: Date;

  // Whether the last take found a token: the statement's answer, kept in the row so one UPSERT can return it.
  @Column({ type: 'boolean' })
  allowed!: boolean;

  // How many tokens the last take got (an instance takes several at once for a busy key), likewise.
  @Column({ type: 'double precision', default: 1 })
  granted!: number;
}
