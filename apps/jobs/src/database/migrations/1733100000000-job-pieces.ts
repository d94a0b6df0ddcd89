import type { MigrationInterface, QueryRunner } from 'typeorm';

// Decision 0101: a long background removal's pieces, which the jobs service sends as they become ready.
export class JobPieces1733100000000 implements MigrationInterface {
  name = 'JobPieces1733100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "jobs"."job_piece" ("job_id" uuid NOT NULL, "piece" character varying(16) NOT NULL, "index" integer NOT NULL, "account_id" uuid NOT NULL, "job_created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "work" jsonb NOT NULL, "plate_key" text, "output" jsonb, "ready_at" TIMESTAMP(3) WITH TIME ZONE, "sent_at" TIMESTAMP(3) WITH TIME ZONE, "done_at" TIMESTAMP(3) WITH TIME ZONE, "time_limit_seconds" integer NOT NULL, "sends" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_job_piece" PRIMARY KEY ("job_id", "piece", "index"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_job_piece_account_open" ON "jobs"."job_piece" ("account_id", "job_created_at") WHERE "done_at" IS NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "jobs"."job_piece"`);
  }
}
