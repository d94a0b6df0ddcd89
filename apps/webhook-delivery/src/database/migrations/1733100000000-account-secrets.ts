import type { MigrationInterface, QueryRunner } from 'typeorm';

// The account's default secret (a create's webhook_url), and one endpoint per job at most.
export class AccountSecrets1733100000000 implements MigrationInterface {
  name = 'AccountSecrets1733100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "webhooks"."account_secret" ("account_id" uuid NOT NULL, "secret" character varying(128) NOT NULL, "previous_secret" character varying(128), "previous_secret_expires_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_account_secret" PRIMARY KEY ("account_id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_endpoint_job" ON "webhooks"."endpoint" ("job_id") WHERE job_id IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "webhooks"."UQ_endpoint_job"`);
    await queryRunner.query(`DROP TABLE "webhooks"."account_secret"`);
  }
}
