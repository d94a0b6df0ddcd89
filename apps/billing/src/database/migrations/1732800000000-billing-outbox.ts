import type { MigrationInterface, QueryRunner } from 'typeorm';

// Decision 0029: billing's events leave through an outbox written in the ledger's transaction.
export class BillingOutbox1732800000000 implements MigrationInterface {
  name = 'BillingOutbox1732800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "billing"."outbox" ("id" uuid NOT NULL, "position" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "subject" character varying(255) NOT NULL, "msg_id" character varying(255) NOT NULL, "payload" jsonb NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "published_at" TIMESTAMP(3) WITH TIME ZONE, "claimed_until" TIMESTAMP(3) WITH TIME ZONE, "failures" integer NOT NULL DEFAULT '0', "last_error" text, "parked_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_outbox" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_outbox_unpublished" ON "billing"."outbox" ("published_at", "position")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "billing"."outbox"`);
  }
}
