import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateBilling1732400000000 implements MigrationInterface {
  name = 'CreateBilling1732400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "billing"."account" ("account_id" uuid NOT NULL, "balance" integer NOT NULL DEFAULT '0', "held" integer NOT NULL DEFAULT '0', "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "CHK_account_available_not_negative" CHECK ("balance" >= "held"), CONSTRAINT "CHK_account_held_not_negative" CHECK ("held" >= 0), CONSTRAINT "PK_account" PRIMARY KEY ("account_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "billing"."job_billing" ("job_id" uuid NOT NULL, "account_id" uuid NOT NULL, "job_type" character varying(64) NOT NULL, "state" character varying(16) NOT NULL, "options" jsonb, "price_version" integer, "credits_estimated" integer, "credits_held" integer, "credits_available" integer, "credits_charged" integer, "credits_priced" integer, "billed_seconds" integer, "decided_at" TIMESTAMP(3) WITH TIME ZONE, "settled_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_job_billing" PRIMARY KEY ("job_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "billing"."ledger_entry" ("seq" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "entry_id" uuid NOT NULL, "account_id" uuid NOT NULL, "kind" character varying(16) NOT NULL, "credits" integer NOT NULL, "idempotency_key" character varying(300) NOT NULL, "job_id" uuid, "job_type" character varying(64), "balance_after" integer NOT NULL, "held_after" integer NOT NULL, "billed_seconds" integer, "price_version" integer, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "CHK_ledger_entry_credits_positive" CHECK ("credits" > 0), CONSTRAINT "PK_ledger_entry" PRIMARY KEY ("seq"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_ledger_entry_account_kind_created" ON "billing"."ledger_entry" ("account_id", "kind", "created_at")`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_ledger_entry_account_seq" ON "billing"."ledger_entry" ("account_id", "seq")`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_ledger_entry_entry_id" ON "billing"."ledger_entry" ("entry_id")`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_ledger_entry_idempotency_key" ON "billing"."ledger_entry" ("idempotency_key")`,
    );
    await queryRunner.query(
      `CREATE TABLE "billing"."price_list" ("version" integer NOT NULL, "prices" jsonb NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_price_list" PRIMARY KEY ("version"))`,
    );
    // The ledger is append-only: the database itself refuses to change or delete an entry.
    await queryRunner.query(
      `CREATE FUNCTION "billing"."ledger_entry_is_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'billing.ledger_entry is append-only'; END $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "TRG_ledger_entry_append_only" BEFORE UPDATE OR DELETE ON "billing"."ledger_entry" FOR EACH STATEMENT EXECUTE FUNCTION "billing"."ledger_entry_is_append_only"()`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "TRG_ledger_entry_append_only" ON "billing"."ledger_entry"`);
    await queryRunner.query(`DROP FUNCTION "billing"."ledger_entry_is_append_only"()`);
    await queryRunner.query(`DROP TABLE "billing"."price_list"`);
    await queryRunner.query(`DROP INDEX "billing"."UQ_ledger_entry_idempotency_key"`);
    await queryRunner.query(`DROP INDEX "billing"."UQ_ledger_entry_entry_id"`);
    await queryRunner.query(`DROP INDEX "billing"."IDX_ledger_entry_account_seq"`);
    await queryRunner.query(`DROP INDEX "billing"."IDX_ledger_entry_account_kind_created"`);
    await queryRunner.query(`DROP TABLE "billing"."ledger_entry"`);
    await queryRunner.query(`DROP TABLE "billing"."job_billing"`);
    await queryRunner.query(`DROP TABLE "billing"."account"`);
  }
}
