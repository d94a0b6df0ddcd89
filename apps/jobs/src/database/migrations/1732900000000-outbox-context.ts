import type { MigrationInterface, QueryRunner } from 'typeorm';

// Decision 0028: an outbox row keeps its writer's request id and trace context for the relay to publish with.
export class JobsOutboxContext1732900000000 implements MigrationInterface {
  name = 'JobsOutboxContext1732900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "jobs"."outbox" ADD "context" jsonb`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "jobs"."outbox" DROP COLUMN "context"`);
  }
}
