import type { MigrationInterface, QueryRunner } from 'typeorm';

// Decision 0024: deleted jobs, expired results and the deletion of inputs once their job ended.
export class Retention1732600000000 implements MigrationInterface {
  name = 'Retention1732600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "jobs"."job" ADD "deleted_at" TIMESTAMP(3) WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "jobs"."job" ADD "files_purged_at" TIMESTAMP(3) WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "jobs"."job" ADD "input_purged_at" TIMESTAMP(3) WITH TIME ZONE`);
    // Jobs that ended before retention existed: their uploads age out with the unused ones.
    await queryRunner.query(`UPDATE "jobs"."job" SET "input_purged_at" = now() WHERE "status" <> 'PROCESSING'`);
    await queryRunner.query(`CREATE INDEX "IDX_job_results_to_expire" ON "jobs"."job" ("finished_at") WHERE "status" = 'COMPLETED' AND "files_purged_at" IS NULL`);
    await queryRunner.query(`CREATE INDEX "IDX_job_inputs_to_purge" ON "jobs"."job" ("finished_at") WHERE "status" <> 'PROCESSING' AND "input_purged_at" IS NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "jobs"."IDX_job_inputs_to_purge"`);
    await queryRunner.query(`DROP INDEX "jobs"."IDX_job_results_to_expire"`);
    await queryRunner.query(`ALTER TABLE "jobs"."job" DROP COLUMN "input_purged_at"`);
    await queryRunner.query(`ALTER TABLE "jobs"."job" DROP COLUMN "files_purged_at"`);
    await queryRunner.query(`ALTER TABLE "jobs"."job" DROP COLUMN "deleted_at"`);
  }
}
