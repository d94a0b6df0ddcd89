import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { WEBHOOK_URL_MAX_LENGTH } from '@vj/contracts';
import { IsDefined, IsOptional } from 'class-validator';
import { IsVideoUrl, VIDEO_URL_MAX_LENGTH } from './video-url.validator';
import { IsWebhookUrl } from './webhook-url.validator';

// The fields every create body has, documented and validated alike for every job type.

export function VideoUrlProperty(): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ description: 'http(s) URL, or the video_url returned by POST /v1/uploads', maxLength: VIDEO_URL_MAX_LENGTH }),
    IsDefined(),
    IsVideoUrl(),
  );
}

export function WebhookUrlProperty(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      description: "receives this job's job.started, job.completed, job.failed and job.cancelled as signed webhooks (Standard Webhooks, signed with the account's default secret: GET /v1/webhook-secret)",
      maxLength: WEBHOOK_URL_MAX_LENGTH,
    }),
    IsOptional(),
    IsWebhookUrl(),
  );
}
