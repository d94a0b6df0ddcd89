import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { BACKGROUND_REMOVAL_DEFAULTS, OUTPUT_CODECS, type OutputCodec } from '@vj/contracts';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, registerDecorator, ValidateNested, type ValidationArguments } from 'class-validator';
import { CompositeBackgroundDto } from './composite-background.dto';
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

  @ApiPropertyOptional({ type: CompositeBackgroundDto, description: 'put the person on a colour, on the picture blurred, or on an image; output_codec must then be h264 (or left out), and the result is one opaque H.264 MP4' })
  @IsOptional()
  @ValidateNested()
  @Type(() => CompositeBackgroundDto)
  @IsCompositeBackground()
  background?: CompositeBackgroundDto;

  @WebhookUrlProperty()
  webhook_url?: string;
}

// Exactly one kind of background, and an output that can hold it: one opaque H.264 MP4.
function IsCompositeBackground(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isCompositeBackground',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown, { object }: ValidationArguments) => {
          // A null inside counts as given: no property of the API takes null.
          const given = ['color', 'blur', 'image_url'].filter((key) => (value as Record<string, unknown>)?.[key] !== undefined);
          const codec = (object as CreateVideoBackgroundRemovalDto).output_codec;
          return given.length === 1 && (value as Record<string, unknown>)[given[0]] !== null && (codec === undefined || codec === 'h264');
        },
        defaultMessage: () => '$property takes exactly one of color, blur or image_url, and output_codec h264 (or none): the result is one opaque H.264 MP4',
      },
    });
}
