import type { MigrationInterface, QueryRunner } from 'typeorm';

// Decision 0027: attempts that failed for a reason of ours, apart from deliveries.
export class FailedAttempts1732700000000 implements MigrationInterface {
  name = 'FailedAttempts1732700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "jobs"."job" ADD "failed_attempts" integer NOT NULL DEFAULT '0'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "jobs"."job" DROP COLUMN "failed_attempts"`);
  }
}
