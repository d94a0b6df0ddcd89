import { Injectable } from '@nestjs/common';
import { UPLOAD_URL_SCHEME, type VideoInputV1 } from '@vj/contracts';
import { ApiError } from '../http/api-error';
import { OwnUploads } from './own-uploads';

export interface ResolvedInput {
  input: VideoInputV1;
  // An upload's duration probed earlier on these very bytes (same ETag); absent when not known yet.
  probedDuration?: number;
}

// Turns a validated video_url into the job's input. An upload must be the caller's own, stored as
// declared (own-uploads.ts), and not an image; the job records its ETag so the worker reads exactly
// these bytes (a PUT again later fails the job, decision 0021). http(s) URLs go to the worker, which
// transloads them behind its SSRF guard.
@Injectable()
export class VideoInputResolver {
  constructor(private readonly uploads: OwnUploads) {}

  async resolve(accountId: string, videoUrl: string): Promise<ResolvedInput> {
    if (!videoUrl.startsWith(UPLOAD_URL_SCHEME)) return { input: { kind: 'url', url: videoUrl } };
    const { uploadId, objectKey, declaration, stored } = await this.uploads.find(accountId, 'video_url', videoUrl);
    if (declaration.content_type.startsWith('image/')) {
      throw ApiError.invalidField('video_url', `this upload is an image (${declaration.content_type}): it may be a background's image_url, not a video_url`);
    }
    const input: VideoInputV1 = { kind: 'upload', upload_id: uploadId, object_key: objectKey, etag: stored.etag, size: stored.size };
    const duration = declaration.probed_etag === stored.etag ? declaration.duration_seconds : null;
    return duration === null ? { input } : { input, probedDuration: duration };
  }
}
