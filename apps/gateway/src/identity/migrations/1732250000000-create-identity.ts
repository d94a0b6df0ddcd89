import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateIdentity1732250000000 implements MigrationInterface {
  name = 'CreateIdentity1732250000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "identity"."accounts" ("id" uuid NOT NULL, "name" character varying(200) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_accounts" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "identity"."api_keys" ("id" uuid NOT NULL, "account_id" uuid NOT NULL, "key_hash" character(64) NOT NULL, "key_prefix" character varying(16) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_api_keys" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_api_keys_account_id" ON "identity"."api_keys" ("account_id")`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_api_keys_key_hash" ON "identity"."api_keys" ("key_hash")`);
    await queryRunner.query(
      `ALTER TABLE "identity"."api_keys" ADD CONSTRAINT "FK_api_keys_account_id" FOREIGN KEY ("account_id") REFERENCES "identity"."accounts"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "identity"."api_keys" DROP CONSTRAINT "FK_api_keys_account_id"`);
    await queryRunner.query(`DROP INDEX "identity"."UQ_api_keys_key_hash"`);
    await queryRunner.query(`DROP INDEX "identity"."IDX_api_keys_account_id"`);
    await queryRunner.query(`DROP TABLE "identity"."api_keys"`);
    await queryRunner.query(`DROP TABLE "identity"."accounts"`);
  }
}
