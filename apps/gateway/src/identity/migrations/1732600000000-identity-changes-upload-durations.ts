import type { MigrationInterface, QueryRunner } from 'typeorm';

// Every gateway caches resolved API keys (decision 0036): a change to a key or an account notifies
// IDENTITY_CHANGES_CHANNEL at commit, whoever writes it (the API, the operator CLI, psql), so every
// instance drops that account's cached keys. A rate-limit take may get several tokens at once (a lease
// of a busy key's tokens, kept in memory for a moment). An upload keeps its probed duration with the ETag it was
// probed for, so a create never probes the same bytes again.
export class IdentityChangesUploadDurations1732600000000 implements MigrationInterface {
  name = 'IdentityChangesUploadDurations1732600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION "identity"."notify_identity_change"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('vj_identity_changes', to_jsonb(COALESCE(NEW, OLD)) ->> TG_ARGV[0]);
        RETURN NULL;
      END $$`);
    await queryRunner.query(
      `CREATE TRIGGER "api_keys_changed" AFTER UPDATE OR DELETE ON "identity"."api_keys" FOR EACH ROW EXECUTE FUNCTION "identity"."notify_identity_change"('account_id')`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "accounts_changed" AFTER UPDATE OR DELETE ON "identity"."accounts" FOR EACH ROW EXECUTE FUNCTION "identity"."notify_identity_change"('id')`,
    );
    await queryRunner.query(`ALTER TABLE "identity"."rate_limit_buckets" ADD "granted" double precision NOT NULL DEFAULT 1`);
    await queryRunner.query(`ALTER TABLE "identity"."uploads" ADD "probed_etag" character varying(200)`);
    await queryRunner.query(`ALTER TABLE "identity"."uploads" ADD "duration_seconds" double precision`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "identity"."uploads" DROP COLUMN "duration_seconds"`);
    await queryRunner.query(`ALTER TABLE "identity"."uploads" DROP COLUMN "probed_etag"`);
    await queryRunner.query(`ALTER TABLE "identity"."rate_limit_buckets" DROP COLUMN "granted"`);
    await queryRunner.query(`DROP TRIGGER "accounts_changed" ON "identity"."accounts"`);
    await queryRunner.query(`DROP TRIGGER "api_keys_changed" ON "identity"."api_keys"`);
    await queryRunner.query(`DROP FUNCTION "identity"."notify_identity_change"()`);
  }
}
