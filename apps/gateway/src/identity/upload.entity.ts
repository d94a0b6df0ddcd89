import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { IDENTITY_SCHEMA } from './identity-schema';

// bigint arrives from pg as a string; sizes stay far below 2^53.
const bigintNumber = { to: (value: number) => value, from: (value: string | null) => (value === null ? null : Number(value)) };

// What POST /v1/uploads declared: the presigned PUT is signed for exactly this size and type, and a
// job's video_url is refused when the stored object differs (decision 0021).
@Entity({ schema: IDENTITY_SCHEMA, name: 'uploads' })
export class UploadEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_uploads' })
  upload_id!: string;

  @Index('IDX_uploads_account_id')
  @Column('uuid')
  account_id!: string;

  @Column({ type: 'varchar', length: 255 })
  file_name!: string;

  @Column({ type: 'varchar', length: 255 })
  content_type!: string;

  @Column({ type: 'bigint', transformer: bigintNumber })
  file_size!: number;

  @Index('IDX_uploads_created_at')
  @Column({ type: 'timestamptz' })
  created_at!: Date;

  // The duration a render worker probed, valid for the object with this ETag only (a PUT again changes
  // it); null until the first quote of the upload, and when the probe found no duration.
  @Column({ type: 'varchar', length: 200, nullable: true })
  probed_etag!: string | null;

  @Column({ type: 'double precision', nullable: true })
  duration_seconds!: number | null;

  // A multipart upload's S3 upload id, until it is completed (then null); null for one PUT.
  @Column({ type: 'varchar', length: 200, nullable: true })
  multipart_id!: string | null;

  // A multipart upload's part size; null for one PUT.
  @Column({ type: 'bigint', nullable: true, transformer: bigintNumber })
  part_size!: number | null;
}
