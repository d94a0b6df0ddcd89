import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateWebhooks1733000000000 implements MigrationInterface {
  name = 'CreateWebhooks1733000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "webhooks"."endpoint" ("endpoint_id" uuid NOT NULL, "account_id" uuid NOT NULL, "url" character varying(2048) NOT NULL, "events" jsonb NOT NULL, "job_id" uuid, "secret" character varying(128) NOT NULL, "previous_secret" character varying(128), "previous_secret_expires_at" TIMESTAMP(3) WITH TIME ZONE, "disabled_at" TIMESTAMP(3) WITH TIME ZONE, "disabled_reason" character varying(200), "deleted_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_endpoint" PRIMARY KEY ("endpoint_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_endpoint_account" ON "webhooks"."endpoint" ("account_id")`);
    await queryRunner.query(
      `CREATE TABLE "webhooks"."delivery" ("delivery_id" uuid NOT NULL, "endpoint_id" uuid NOT NULL, "source_id" character varying(200) NOT NULL, "event_type" character varying(32) NOT NULL, "job_id" uuid NOT NULL, "body" text NOT NULL, "state" character varying(16) NOT NULL, "failed_attempts" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP(3) WITH TIME ZONE, "claimed_until" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_delivery" PRIMARY KEY ("delivery_id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_delivery_source_endpoint" ON "webhooks"."delivery" ("source_id", "endpoint_id")`);
    await queryRunner.query(`CREATE INDEX "IDX_delivery_due" ON "webhooks"."delivery" ("next_attempt_at")`);
    await queryRunner.query(`CREATE INDEX "IDX_delivery_endpoint_created" ON "webhooks"."delivery" ("endpoint_id", "created_at")`);
    await queryRunner.query(
      `CREATE TABLE "webhooks"."attempt" ("attempt_seq" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "delivery_id" uuid NOT NULL, "attempted_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "status_code" integer, "error" character varying(500), "duration_ms" integer NOT NULL, "response_body" character varying(1024) NOT NULL, CONSTRAINT "PK_attempt" PRIMARY KEY ("attempt_seq"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_attempt_delivery" ON "webhooks"."attempt" ("delivery_id", "attempt_seq")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "webhooks"."IDX_attempt_delivery"`);
    await queryRunner.query(`DROP TABLE "webhooks"."attempt"`);
    await queryRunner.query(`DROP INDEX "webhooks"."IDX_delivery_endpoint_created"`);
    await queryRunner.query(`DROP INDEX "webhooks"."IDX_delivery_due"`);
    await queryRunner.query(`DROP INDEX "webhooks"."UQ_delivery_source_endpoint"`);
    await queryRunner.query(`DROP TABLE "webhooks"."delivery"`);
    await queryRunner.query(`DROP INDEX "webhooks"."IDX_endpoint_account"`);
    await queryRunner.query(`DROP TABLE "webhooks"."endpoint"`);
  }
}
