import type { MigrationInterface, QueryRunner } from 'typeorm';

// Decision 0029: the relay claims rows with a lease instead of holding a transaction open while it
// publishes, and parks a row that keeps failing while later rows go out.
export class OutboxClaims1732800000000 implements MigrationInterface {
  name = 'OutboxClaims1732800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "jobs"."outbox" ADD "claimed_until" TIMESTAMP(3) WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "jobs"."outbox" ADD "failures" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "jobs"."outbox" ADD "last_error" text`);
    await queryRunner.query(`ALTER TABLE "jobs"."outbox" ADD "parked_at" TIMESTAMP(3) WITH TIME ZONE`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const column of ['parked_at', 'last_error', 'failures', 'claimed_until']) await queryRunner.query(`ALTER TABLE "jobs"."outbox" DROP COLUMN "${column}"`);
  }
}
