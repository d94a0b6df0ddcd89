import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { CLEAN_AUDIO_DEFAULTS } from '@vj/contracts';
import { IsBoolean, IsNumber, IsOptional, Max, Min } from 'class-validator';
import { VideoUrlProperty, WebhookUrlProperty } from './create-job-properties';

// The name generated clients see.
@ApiSchema({ name: 'CreateCleanAudioVideoJobRequest' })
export class CreateCleanAudioVideoDto {
  @VideoUrlProperty()
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

  @WebhookUrlProperty()
  webhook_url?: string;
}
