import { isHttpUrl, isUploadUrl, UPLOAD_URL_SCHEME } from '@vj/contracts';
import { registerDecorator, type ValidationOptions } from 'class-validator';

export const VIDEO_URL_MAX_LENGTH = 8192;
export function isVideoUrl(value: unknown): boolean {
  if (typeof value === 'string' && value.startsWith(UPLOAD_URL_SCHEME)) return isUploadUrl(value);
  return isHttpUrl(value, VIDEO_URL_MAX_LENGTH);
}

// An http(s) URL of at most 8,192 characters, or the video_url returned by POST /v1/uploads.
export function IsVideoUrl(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isVideoUrl',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: `$property must be an http(s) URL of at most ${VIDEO_URL_MAX_LENGTH} characters without credentials, or a video_url returned by POST /v1/uploads`,
        ...options,
      },
      validator: { validate: isVideoUrl },
    });
}
