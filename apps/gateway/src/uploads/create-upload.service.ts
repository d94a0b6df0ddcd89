import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { uploadObjectKey, uploadVideoUrl } from '@vj/contracts';
import type { CreateUploadDto } from '@vj/http-contracts';
import { ObjectStorage } from '@vj/storage';
import { GATEWAY_CONFIG } from '../config/gateway-config.token';
import type { GatewayConfig } from '../gateway.env';
import { ApiError } from '../http/api-error';
import { UploadsRepository } from './uploads.repository';

export interface UploadTicket {
  upload_id: string;
  upload_url: string;
  video_url: string;
  expires_at: string;
}

// The object key sits under the account's prefix; that is what ties the upload to its account. The PUT
// is signed for the declared file_size and content_type, so S3 refuses any other body (decision 0021);
// the declaration is kept so a job's create can check the stored object against it.
@Injectable()
export class CreateUploadService {
  constructor(
    private readonly storage: ObjectStorage,
    private readonly uploads: UploadsRepository,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async execute(accountId: string, request: CreateUploadDto): Promise<UploadTicket> {
    if (request.file_size > this.config.UPLOAD_MAX_BYTES) {
      throw ApiError.tooLarge(`file_size ${request.file_size} is more than the limit of ${this.config.UPLOAD_MAX_BYTES} bytes`);
    }
    const uploadId = randomUUID();
    const ttl = this.config.UPLOAD_URL_TTL_SECONDS;
    const now = new Date();
    const expiresAt = new Date(now.getTime() + ttl * 1000);
    await this.uploads.insert({
      upload_id: uploadId,
      account_id: accountId,
      file_name: request.file_name,
      content_type: request.content_type,
      file_size: request.file_size,
      created_at: now,
    });
    const uploadUrl = await this.storage.presignPut(uploadObjectKey(accountId, uploadId), ttl, {
      contentLength: request.file_size,
      contentType: request.content_type,
    });
    return { upload_id: uploadId, upload_url: uploadUrl, video_url: uploadVideoUrl(uploadId), expires_at: expiresAt.toISOString() };
  }
}
