import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { uploadObjectKey, uploadVideoUrl } from '@vj/contracts';
import type { CreateUploadDto } from '@vj/http-contracts';
import { ObjectStorage } from '@vj/storage';
import { GATEWAY_CONFIG } from '../config/gateway-config.token';
import type { GatewayConfig } from '../gateway.env';
import { ApiError } from '../http/api-error';
import { partLayout, type PartLayout } from './part-layout';
import { uploadSizeLimit } from './upload-size-limit';
import { UploadsRepository } from './uploads.repository';

export type UploadTicket = {
  upload_id: string;
  video_url: string;
  expires_at: string;
} & ({ upload_url: string } | { parts: PartLayout });

// The object key sits under the account's prefix; that is what ties the upload to its account. The PUT
// is signed for the declared file_size and content_type, so S3 refuses any other body (decision 0021);
// the declaration is kept so a job's create can check the stored object against it. A multipart
// upload (decision 0099) starts its S3 upload here; its parts' URLs are signed as the client asks.
@Injectable()
export class CreateUploadService {
  constructor(
    private readonly storage: ObjectStorage,
    private readonly uploads: UploadsRepository,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async execute(accountId: string, request: CreateUploadDto): Promise<UploadTicket> {
    const multipart = this.isMultipart(request);
    const uploadId = randomUUID();
    const objectKey = uploadObjectKey(accountId, uploadId);
    const now = new Date();
    const declaration = { upload_id: uploadId, account_id: accountId, file_name: request.file_name, content_type: request.content_type, file_size: request.file_size, created_at: now };
    if (multipart) {
      const parts = partLayout(request.file_size, this.config.UPLOAD_PART_BYTES);
      const multipartId = await this.storage.startMultipart(objectKey, request.content_type);
      await this.uploads.insert({ ...declaration, multipart_id: multipartId, part_size: parts.part_size });
      const abortedAt = new Date(now.getTime() + this.config.UPLOAD_RETENTION_HOURS * 3_600_000);
      return { upload_id: uploadId, parts, video_url: uploadVideoUrl(uploadId), expires_at: abortedAt.toISOString() };
    }
    const ttl = this.config.UPLOAD_URL_TTL_SECONDS;
    await this.uploads.insert(declaration);
    const uploadUrl = await this.storage.presignPut(objectKey, ttl, { contentLength: request.file_size, contentType: request.content_type });
    return { upload_id: uploadId, upload_url: uploadUrl, video_url: uploadVideoUrl(uploadId), expires_at: new Date(now.getTime() + ttl * 1000).toISOString() };
  }

  // A file larger than one PUT may carry is multipart unless the client asked for one PUT: no client
  // that works with one PUT today is answered parts (decision 0099).
  private isMultipart({ file_size, multipart }: CreateUploadDto): boolean {
    const chosen = multipart ?? file_size > this.config.UPLOAD_MAX_BYTES;
    const limit = uploadSizeLimit(this.config, chosen);
    const hint = chosen ? '' : ' for one PUT: leave multipart out, or set it to true';
    if (file_size > limit) throw ApiError.tooLarge(`file_size ${file_size} is more than the limit of ${limit} bytes${hint}`);
    return chosen;
  }
}
