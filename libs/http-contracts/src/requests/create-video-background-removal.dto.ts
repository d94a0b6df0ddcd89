import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { BACKGROUND_REMOVAL_DEFAULTS, OUTPUT_CODECS, type OutputCodec } from '@vj/contracts';
import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import { VideoUrlProperty, WebhookUrlProperty } from './create-job-properties';

// The name generated clients see.
@ApiSchema({ name: 'CreateVideoBackgroundRemovalJobRequest' })
export class CreateVideoBackgroundRemovalDto {
  @VideoUrlProperty()
  video_url!: string;

  @ApiPropertyOptional({
    enum: OUTPUT_CODECS,
    default: BACKGROUND_REMOVAL_DEFAULTS.output_codec,
    description:
      'vp9: one WebM with alpha (plays in Chromium and Firefox). h264: two MP4s, the picture and its alpha matte (luma = alpha). prores: one QuickTime MOV, ProRes 4444 with alpha, for editing suites. png_sequence: one ZIP of RGBA PNGs named by frame index (frames/000000.png on), and audio.wav. Each keeps the sound of the source.',
  })
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

  @WebhookUrlProperty()
  webhook_url?: string;
}
