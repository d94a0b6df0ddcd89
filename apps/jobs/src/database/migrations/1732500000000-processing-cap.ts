import type { MigrationInterface, QueryRunner } from 'typeorm';

// The per-account cap on PROCESSING jobs counts them at every create: a partial index keeps that count
// to the account's live jobs, however many final ones it has.
export class ProcessingCap1732500000000 implements MigrationInterface {
  name = 'ProcessingCap1732500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "IDX_job_account_processing" ON "jobs"."job" ("account_id") WHERE "status" = 'PROCESSING'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "jobs"."IDX_job_account_processing"`);
  }
}
