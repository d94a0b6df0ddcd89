import type { MigrationInterface, QueryRunner } from 'typeorm';

// A multipart upload (decision 0099) keeps the S3 upload its parts go to, until it is completed or
// aborted, and the size of its parts.
export class MultipartUploads1733600000000 implements MigrationInterface {
  name = 'MultipartUploads1733600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "identity"."uploads" ADD "multipart_id" character varying(200)`);
    await queryRunner.query(`ALTER TABLE "identity"."uploads" ADD "part_size" bigint`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "identity"."uploads" DROP COLUMN "part_size"`);
    await queryRunner.query(`ALTER TABLE "identity"."uploads" DROP COLUMN "multipart_id"`);
  }
}
