import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { uploadObjectKey, uploadVideoUrl, type CreateUploadDto } from '@vj/contracts';
import { ObjectStorage } from '@vj/storage';
import { GATEWAY_CONFIG } from '../config/gateway-config.token';
import type { GatewayConfig } from '../gateway.env';
import { ApiError } from '../http/api-error';

export interface UploadTicket {
  upload_id: string;
  upload_url: string;
  video_url: string;
  expires_at: string;
}

// The object key sits under the account's prefix; that is what ties the upload to its account.
// A presigned PUT cannot cap the size, so creating a job checks the stored size again.
@Injectable()
export class CreateUploadService {
  constructor(
    private readonly storage: ObjectStorage,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async execute(accountId: string, request: CreateUploadDto): Promise<UploadTicket> {
    if (request.file_size > this.config.UPLOAD_MAX_BYTES) {
      throw ApiError.tooLarge(`file_size ${request.file_size} is more than the limit of ${this.config.UPLOAD_MAX_BYTES} bytes`);
    }
    const uploadId = randomUUID();
    const ttl = this.config.UPLOAD_URL_TTL_SECONDS;
    const expiresAt = new Date(Date.now() + ttl * 1000);
    const uploadUrl = await this.storage.presignPut(uploadObjectKey(accountId, uploadId), ttl);
    return { upload_id: uploadId, upload_url: uploadUrl, video_url: uploadVideoUrl(uploadId), expires_at: expiresAt.toISOString() };
  }
}
