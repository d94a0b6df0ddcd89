import { Inject, Injectable } from '@nestjs/common';
import { isUploadUrl, uploadIdOf, uploadObjectKey } from '@vj/contracts';
import { ObjectStorage, type ObjectInfo } from '@vj/storage';
import { GATEWAY_CONFIG } from '../config/gateway-config.token';
import type { GatewayConfig } from '../gateway.env';
import { ApiError } from '../http/api-error';
import type { UploadEntity } from '../identity';
import { uploadSizeLimit, UploadsRepository } from '../uploads';

export interface OwnUpload {
  uploadId: string;
  objectKey: string;
  declaration: UploadEntity;
  stored: ObjectInfo;
}

// An upload:// URL named by a create: looked up among the caller's own declarations and under the
// caller's own prefix, so one account cannot use another's upload, and the stored object must be what
// POST /v1/uploads declared (decision 0021). Every refusal names the request's field.
@Injectable()
export class OwnUploads {
  constructor(
    private readonly storage: ObjectStorage,
    private readonly uploads: UploadsRepository,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async find(accountId: string, field: string, uploadUrl: string): Promise<OwnUpload> {
    const uploadId = isUploadUrl(uploadUrl.toLowerCase()) ? uploadIdOf(uploadUrl.toLowerCase()) : null;
    const declaration = uploadId ? await this.uploads.findOwn(accountId, uploadId) : null;
    if (!uploadId || !declaration) throw ApiError.invalidField(field, `no upload of this account has this ${field} (uploads expire; see UPLOAD_RETENTION_HOURS)`);
    const objectKey = uploadObjectKey(accountId, uploadId);
    const stored = await this.storage.stat(objectKey);
    if (!stored) {
      const next = declaration.multipart_id !== null ? 'PUT every part and POST /v1/uploads/{upload_id}/complete first' : 'PUT the bytes to upload_url first (or the upload was deleted)';
      throw ApiError.invalidField(field, `no uploaded file for this ${field}: ${next}`);
    }
    const limit = uploadSizeLimit(this.config, declaration.multipart_id !== null);
    if (stored.size > limit) {
      throw ApiError.tooLarge(`the uploaded file is ${stored.size} bytes, more than the limit of ${limit}`);
    }
    if (stored.size !== declaration.file_size || stored.contentType !== declaration.content_type) {
      throw ApiError.invalidField(
        field,
        `the uploaded file (${stored.size} bytes, ${stored.contentType ?? 'no type'}) is not what was declared (${declaration.file_size} bytes, ${declaration.content_type})`,
      );
    }
    return { uploadId, objectKey, declaration, stored };
  }
}
