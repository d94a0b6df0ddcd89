import type { MigrationInterface, QueryRunner } from 'typeorm';

// Several keys per account (named, revocable), suspension and per-account limits, the shared rate-limit
// buckets and the uploads' declarations.
export class KeysLimitsUploads1732500000000 implements MigrationInterface {
  name = 'KeysLimitsUploads1732500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "identity"."api_keys" ADD "name" character varying(100)`);
    await queryRunner.query(`ALTER TABLE "identity"."api_keys" ADD "revoked_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "identity"."accounts" ADD "suspended_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "identity"."accounts" ADD "reads_per_second" double precision`);
    await queryRunner.query(`ALTER TABLE "identity"."accounts" ADD "read_burst" integer`);
    await queryRunner.query(`ALTER TABLE "identity"."accounts" ADD "writes_per_second" double precision`);
    await queryRunner.query(`ALTER TABLE "identity"."accounts" ADD "write_burst" integer`);
    await queryRunner.query(`ALTER TABLE "identity"."accounts" ADD "max_processing_jobs" integer`);
    // UNLOGGED: no WAL per request; a PostgreSQL crash empties it, which only refills the buckets.
    await queryRunner.query(
      `CREATE UNLOGGED TABLE "identity"."rate_limit_buckets" ("bucket_key" character varying(200) NOT NULL, "tokens" double precision NOT NULL, "refilled_at" TIMESTAMP WITH TIME ZONE NOT NULL, "allowed" boolean NOT NULL, "full_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_rate_limit_buckets" PRIMARY KEY ("bucket_key"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_rate_limit_buckets_full_at" ON "identity"."rate_limit_buckets" ("full_at")`);
    await queryRunner.query(
      `CREATE TABLE "identity"."uploads" ("upload_id" uuid NOT NULL, "account_id" uuid NOT NULL, "file_name" character varying(255) NOT NULL, "content_type" character varying(255) NOT NULL, "file_size" bigint NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_uploads" PRIMARY KEY ("upload_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_uploads_account_id" ON "identity"."uploads" ("account_id")`);
    await queryRunner.query(`CREATE INDEX "IDX_uploads_created_at" ON "identity"."uploads" ("created_at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "identity"."uploads"`);
    await queryRunner.query(`DROP TABLE "identity"."rate_limit_buckets"`);
    for (const column of ['max_processing_jobs', 'write_burst', 'writes_per_second', 'read_burst', 'reads_per_second', 'suspended_at']) {
      await queryRunner.query(`ALTER TABLE "identity"."accounts" DROP COLUMN "${column}"`);
    }
    await queryRunner.query(`ALTER TABLE "identity"."api_keys" DROP COLUMN "revoked_at"`);
    await queryRunner.query(`ALTER TABLE "identity"."api_keys" DROP COLUMN "name"`);
  }
}
