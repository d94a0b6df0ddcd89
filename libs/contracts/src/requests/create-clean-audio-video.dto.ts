import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsNumber, IsOptional, Max, Min } from 'class-validator';
import { CLEAN_AUDIO_DEFAULTS } from '../job/job-options';
import { IsVideoUrl, VIDEO_URL_MAX_LENGTH } from './video-url.validator';
import { IsWebhookUrl, WEBHOOK_URL_MAX_LENGTH } from './webhook-url.validator';

// The name generated clients see.
@ApiSchema({ name: 'CreateCleanAudioVideoJobRequest' })
export class CreateCleanAudioVideoDto {
  @ApiProperty({ description: 'http(s) URL, or the video_url returned by POST /v1/uploads', maxLength: VIDEO_URL_MAX_LENGTH })
  @IsDefined()
  @IsVideoUrl()
  video_url!: string;

  @ApiPropertyOptional({ minimum: 0, maximum: 1, default: CLEAN_AUDIO_DEFAULTS.strength })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1)
  strength?: number;

  @ApiPropertyOptional({ default: CLEAN_AUDIO_DEFAULTS.normalize_loudness })
  @IsOptional()
  @IsBoolean()
  normalize_loudness?: boolean;

  @ApiPropertyOptional({ minimum: -40, maximum: -8, default: CLEAN_AUDIO_DEFAULTS.target_lufs })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-40)
  @Max(-8)
  target_lufs?: number;

  @ApiPropertyOptional({
    description: "receives this job's job.started, job.completed, job.failed and job.cancelled as signed webhooks (Standard Webhooks, signed with the account's default secret: GET /v1/webhook-secret)",
    maxLength: WEBHOOK_URL_MAX_LENGTH,
  })
  @IsOptional()
  @IsWebhookUrl()
  webhook_url?: string;
}
