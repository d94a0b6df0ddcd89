import { Inject, Injectable } from '@nestjs/common';
import { UPLOAD_URL_SCHEME, uploadObjectKey, type JobInputV1 } from '@vj/contracts';
import { ObjectStorage } from '@vj/storage';
import { GATEWAY_CONFIG } from '../config/gateway-config.token';
import type { GatewayConfig } from '../gateway.env';
import { ApiError } from '../http/api-error';

// Turns a validated video_url into the job's input. An upload is looked up under the caller's own
// account prefix, so one account cannot use another's upload; http(s) URLs go to the worker, which
// transloads them behind its SSRF guard.
@Injectable()
export class VideoInputResolver {
  constructor(
    private readonly storage: ObjectStorage,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async resolve(accountId: string, videoUrl: string): Promise<JobInputV1> {
    if (!videoUrl.startsWith(UPLOAD_URL_SCHEME)) return { kind: 'url', url: videoUrl };
    const uploadId = videoUrl.slice(`${UPLOAD_URL_SCHEME}//`.length).toLowerCase();
    const objectKey = uploadObjectKey(accountId, uploadId);
    const info = await this.storage.stat(objectKey);
    if (!info) throw ApiError.invalidField('video_url', 'no uploaded file for this video_url: PUT the bytes to upload_url first');
    if (info.size > this.config.UPLOAD_MAX_BYTES) {
      throw ApiError.tooLarge(`the uploaded file is ${info.size} bytes, more than the limit of ${this.config.UPLOAD_MAX_BYTES}`);
    }
    return { kind: 'upload', upload_id: uploadId, object_key: objectKey };
  }
}
