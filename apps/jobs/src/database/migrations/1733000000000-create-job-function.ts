import type { MigrationInterface, QueryRunner } from 'typeorm';

// Decision 0050: a create is one statement. The function inserts the job, claims its Idempotency-Key
// and writes its outbox rows, then counts the account's PROCESSING jobs under the account's advisory
// lock; called outside a transaction, the statement commits as it returns, so the lock is held for no
// round trip at all. A VOLATILE function's statements each take a fresh snapshot: the count, taken
// after the lock, sees every create that committed before it. Either refusal raises, which undoes the
// whole statement: VJ001 the key is held for another job, VJ002 the cap is passed.
export class CreateJobFunction1733000000000 implements MigrationInterface {
  name = 'CreateJobFunction1733000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION "jobs"."create_job"(job jsonb, outbox jsonb, idempotency_key varchar, request_hash varchar, key_expired_before timestamptz, max_processing integer)
      RETURNS void LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        inserted "jobs"."job";
      BEGIN
        INSERT INTO "jobs"."job" SELECT * FROM jsonb_populate_record(NULL::"jobs"."job", job) RETURNING * INTO inserted;
        IF idempotency_key IS NOT NULL THEN
          INSERT INTO "jobs"."idempotency_key" AS k ("account_id", "key", "request_hash", "job_id", "created_at")
          VALUES (inserted."account_id", idempotency_key, request_hash, inserted."job_id", inserted."created_at")
          ON CONFLICT ("account_id", "key") DO UPDATE
            SET "request_hash" = EXCLUDED."request_hash", "job_id" = EXCLUDED."job_id", "created_at" = EXCLUDED."created_at"
            WHERE k."created_at" < key_expired_before;
          IF NOT FOUND THEN
            RAISE EXCEPTION 'the Idempotency-Key is held for another job' USING ERRCODE = 'VJ001';
          END IF;
        END IF;
        -- In the array's order: the identity "position" is the order the relay publishes in.
        INSERT INTO "jobs"."outbox" ("id", "subject", "msg_id", "payload", "context", "created_at")
        SELECT "id", "subject", "msg_id", "payload", "context", "created_at"
          FROM jsonb_populate_recordset(NULL::"jobs"."outbox", outbox) WITH ORDINALITY ORDER BY "ordinality";
        IF max_processing IS NOT NULL THEN
          PERFORM pg_advisory_xact_lock(7301, hashtext(job->>'account_id'));
          -- Counted up to one past the cap: an account's create costs no more than its cap allows.
          IF (SELECT count(*) FROM (SELECT FROM "jobs"."job" WHERE "account_id" = inserted."account_id" AND "status" = 'PROCESSING' LIMIT max_processing::bigint + 1) AS live) > max_processing THEN
            RAISE EXCEPTION 'the account has more than % jobs PROCESSING', max_processing USING ERRCODE = 'VJ002';
          END IF;
        END IF;
      END $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION "jobs"."create_job"(jsonb, jsonb, varchar, varchar, timestamptz, integer)`);
  }
}
