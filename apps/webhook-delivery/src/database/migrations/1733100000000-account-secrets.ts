import type { MigrationInterface, QueryRunner } from 'typeorm';

// The account's default secret (a create's webhook_url), one endpoint per job at most, and indexes that
// leave out what a lookup never wants: job endpoints from an account's list, settled rows from the due ones.
export class AccountSecrets1733100000000 implements MigrationInterface {
  name = 'AccountSecrets1733100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "webhooks"."account_secret" ("account_id" uuid NOT NULL, "secret" character varying(128) NOT NULL, "previous_secret" character varying(128), "previous_secret_expires_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_account_secret" PRIMARY KEY ("account_id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_endpoint_job" ON "webhooks"."endpoint" ("job_id") WHERE job_id IS NOT NULL`);
    await queryRunner.query(`DROP INDEX "webhooks"."IDX_endpoint_account"`);
    await queryRunner.query(`CREATE INDEX "IDX_endpoint_account" ON "webhooks"."endpoint" ("account_id") WHERE job_id IS NULL`);
    await queryRunner.query(`DROP INDEX "webhooks"."IDX_delivery_due"`);
    await queryRunner.query(`CREATE INDEX "IDX_delivery_due" ON "webhooks"."delivery" ("next_attempt_at") WHERE next_attempt_at IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "IDX_delivery_settled" ON "webhooks"."delivery" ("created_at") WHERE next_attempt_at IS NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "webhooks"."IDX_delivery_settled"`);
    await queryRunner.query(`DROP INDEX "webhooks"."IDX_delivery_due"`);
    await queryRunner.query(`CREATE INDEX "IDX_delivery_due" ON "webhooks"."delivery" ("next_attempt_at")`);
    await queryRunner.query(`DROP INDEX "webhooks"."IDX_endpoint_account"`);
    await queryRunner.query(`CREATE INDEX "IDX_endpoint_account" ON "webhooks"."endpoint" ("account_id")`);
    await queryRunner.query(`DROP INDEX "webhooks"."UQ_endpoint_job"`);
    await queryRunner.query(`DROP TABLE "webhooks"."account_secret"`);
  }
}
