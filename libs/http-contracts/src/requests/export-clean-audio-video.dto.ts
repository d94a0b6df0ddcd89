import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsBoolean, IsNumber, IsOptional, Max, Min } from 'class-validator';
import { WebhookUrlProperty } from './create-job-properties';

// POST /v1/clean-audio-video/{job_id}/exports (decision 0093): the options to remix the job's kept stems
// with. Each one left out is the source job's.
@ApiSchema({ name: 'ExportCleanAudioVideoJobRequest' })
export class ExportCleanAudioVideoDto {
  @ApiPropertyOptional({ minimum: 0, maximum: 1, description: "the source job's when left out" })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1)
  strength?: number;

  @ApiPropertyOptional({ description: "the source job's when left out; false keeps the source video's own loudness" })
  @IsOptional()
  @IsBoolean()
  normalize_loudness?: boolean;

  @ApiPropertyOptional({ minimum: -40, maximum: -8, description: "the source job's when left out" })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-40)
  @Max(-8)
  target_lufs?: number;

  @WebhookUrlProperty()
  webhook_url?: string;
}
