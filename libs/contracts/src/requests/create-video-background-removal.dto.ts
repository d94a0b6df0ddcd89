import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsIn, IsOptional } from 'class-validator';
import { BACKGROUND_REMOVAL_DEFAULTS, OUTPUT_CODECS, type OutputCodec } from '../job/job-options';
import { IsVideoUrl, VIDEO_URL_MAX_LENGTH } from './video-url.validator';
import { IsWebhookUrl, WEBHOOK_URL_MAX_LENGTH } from './webhook-url.validator';

// The name generated clients see.
@ApiSchema({ name: 'CreateVideoBackgroundRemovalJobRequest' })
export class CreateVideoBackgroundRemovalDto {
  @ApiProperty({ description: 'http(s) URL, or the video_url returned by POST /v1/uploads', maxLength: VIDEO_URL_MAX_LENGTH })
  @IsDefined()
  @IsVideoUrl()
  video_url!: string;

  @ApiPropertyOptional({ enum: OUTPUT_CODECS, default: BACKGROUND_REMOVAL_DEFAULTS.output_codec })
  @IsOptional()
  @IsIn(OUTPUT_CODECS)
  output_codec?: OutputCodec;

  @ApiPropertyOptional({ default: BACKGROUND_REMOVAL_DEFAULTS.refine_foreground_edges })
  @IsOptional()
  @IsBoolean()
  refine_foreground_edges?: boolean;

  @ApiPropertyOptional({ default: BACKGROUND_REMOVAL_DEFAULTS.subject_is_person })
  @IsOptional()
  @IsBoolean()
  subject_is_person?: boolean;

  @ApiPropertyOptional({
    description: "receives this job's job.started, job.completed, job.failed and job.cancelled as signed webhooks (Standard Webhooks, signed with the account's default secret: GET /v1/webhook-secret)",
    maxLength: WEBHOOK_URL_MAX_LENGTH,
  })
  @IsOptional()
  @IsWebhookUrl()
  webhook_url?: string;
}
