import { Inject, Injectable } from '@nestjs/common';
import { UPLOAD_URL_SCHEME, uploadObjectKey, type JobInputV1 } from '@vj/contracts';
import { isUUID } from 'class-validator';
import { ObjectStorage } from '@vj/storage';
import { GATEWAY_CONFIG } from '../config/gateway-config.token';
import type { GatewayConfig } from '../gateway.env';
import { ApiError } from '../http/api-error';
import { UploadsRepository } from '../uploads';

export interface ResolvedInput {
  input: JobInputV1;
  // An upload's duration probed earlier on these very bytes (same ETag); absent when not known yet.
  probedDuration?: number;
}

// Turns a validated video_url into the job's input. An upload is looked up among the caller's own
// declarations and under the caller's own prefix, so one account cannot use another's upload; the
// stored object must be what POST /v1/uploads declared, and the job records its ETag so the worker
// reads exactly these bytes (a PUT again later fails the job, decision 0021). http(s) URLs go to the
// worker, which transloads them behind its SSRF guard.
@Injectable()
export class VideoInputResolver {
  constructor(
    private readonly storage: ObjectStorage,
    private readonly uploads: UploadsRepository,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async resolve(accountId: string, videoUrl: string): Promise<ResolvedInput> {
    if (!videoUrl.startsWith(UPLOAD_URL_SCHEME)) return { input: { kind: 'url', url: videoUrl } };
    const uploadId = videoUrl.slice(`${UPLOAD_URL_SCHEME}//`.length).toLowerCase();
    const declaration = isUUID(uploadId) ? await this.uploads.findOwn(accountId, uploadId) : null;
    if (!declaration) throw ApiError.invalidField('video_url', 'no upload of this account has this video_url (uploads expire; see UPLOAD_RETENTION_HOURS)');
    const objectKey = uploadObjectKey(accountId, uploadId);
    const info = await this.storage.stat(objectKey);
    if (!info) throw ApiError.invalidField('video_url', 'no uploaded file for this video_url: PUT the bytes to upload_url first (or the upload was deleted)');
    if (info.size > this.config.UPLOAD_MAX_BYTES) {
      throw ApiError.tooLarge(`the uploaded file is ${info.size} bytes, more than the limit of ${this.config.UPLOAD_MAX_BYTES}`);
    }
    if (info.size !== declaration.file_size || info.contentType !== declaration.content_type) {
      throw ApiError.invalidField(
        'video_url',
        `the uploaded file (${info.size} bytes, ${info.contentType ?? 'no type'}) is not what was declared (${declaration.file_size} bytes, ${declaration.content_type})`,
      );
    }
    const input: JobInputV1 = { kind: 'upload', upload_id: uploadId, object_key: objectKey, etag: info.etag, size: info.size };
    const duration = declaration.probed_etag === info.etag ? declaration.duration_seconds : null;
    return duration === null ? { input } : { input, probedDuration: duration };
  }
}
