import type { MigrationInterface, QueryRunner } from 'typeorm';

// Decision 0015: the job keeps billing's quote and remembers when billing funded it (its work went out).
export class JobFunding1732400000000 implements MigrationInterface {
  name = 'JobFunding1732400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "jobs"."job" ADD "estimate" jsonb`);
    await queryRunner.query(`ALTER TABLE "jobs"."job" ADD "funded_at" TIMESTAMP(3) WITH TIME ZONE`);
    // Jobs created before the saga had their work message sent at create: a late hold_placed must not
    // send it again.
    await queryRunner.query(`UPDATE "jobs"."job" SET "funded_at" = "created_at"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "jobs"."job" DROP COLUMN "funded_at"`);
    await queryRunner.query(`ALTER TABLE "jobs"."job" DROP COLUMN "estimate"`);
  }
}
