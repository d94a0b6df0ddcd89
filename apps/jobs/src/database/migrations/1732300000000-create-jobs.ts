import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateJobs1732300000000 implements MigrationInterface {
  name = 'CreateJobs1732300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "jobs"."job" ("job_id" uuid NOT NULL, "account_id" uuid NOT NULL, "job_type" character varying(64) NOT NULL, "status" character varying(16) NOT NULL, "input" jsonb NOT NULL, "options" jsonb NOT NULL, "result" jsonb, "error" jsonb, "credits_estimated" integer, "credits_charged" integer, "media_duration_seconds" double precision, "attempts" integer NOT NULL DEFAULT '0', "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "finished_at" TIMESTAMP(3) WITH TIME ZONE, "deadline_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_job" PRIMARY KEY ("job_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_job_account_created" ON "jobs"."job" ("account_id", "created_at", "job_id")`);
    await queryRunner.query(`CREATE INDEX "IDX_job_status_deadline" ON "jobs"."job" ("status", "deadline_at")`);
    await queryRunner.query(
      `CREATE TABLE "jobs"."idempotency_key" ("account_id" uuid NOT NULL, "key" character varying(255) NOT NULL, "request_hash" character varying(128) NOT NULL, "job_id" uuid NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_idempotency_key" PRIMARY KEY ("account_id", "key"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "jobs"."outbox" ("id" uuid NOT NULL, "position" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "subject" character varying(255) NOT NULL, "msg_id" character varying(255) NOT NULL, "payload" jsonb NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "published_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_outbox" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_outbox_unpublished" ON "jobs"."outbox" ("published_at", "position")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "jobs"."outbox"`);
    await queryRunner.query(`DROP TABLE "jobs"."idempotency_key"`);
    await queryRunner.query(`DROP TABLE "jobs"."job"`);
  }
}
