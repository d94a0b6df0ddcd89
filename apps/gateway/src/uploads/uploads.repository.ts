import { LessThan, type DataSource } from 'typeorm';
import { UploadEntity } from '../identity/upload.entity';

export type UploadDeclaration = Pick<UploadEntity, 'upload_id' | 'account_id' | 'file_name' | 'content_type' | 'file_size' | 'created_at'>;

// The uploads' declarations, in the gateway's schema.
export class UploadsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(declaration: UploadDeclaration): Promise<void> {
    await this.dataSource.getRepository(UploadEntity).insert(declaration);
  }

  // Only the account's own: another account's upload id names nothing.
  findOwn(accountId: string, uploadId: string): Promise<UploadEntity | null> {
    return this.dataSource.getRepository(UploadEntity).findOneBy({ upload_id: uploadId, account_id: accountId });
  }

  // Kept with the upload for the bytes it was probed on: later quotes of the same object need no probe.
  async recordDuration(uploadId: string, etag: string, durationSeconds: number): Promise<void> {
    await this.dataSource.getRepository(UploadEntity).update({ upload_id: uploadId }, { probed_etag: etag, duration_seconds: durationSeconds });
  }

  // Declarations past the uploads' retention; their objects are deleted by the jobs service's sweeper.
  async deleteCreatedBefore(before: Date): Promise<number> {
    const result = await this.dataSource.getRepository(UploadEntity).delete({ created_at: LessThan(before) });
    return result.affected ?? 0;
  }
}
