import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { BACKGROUND_COLOR, BACKGROUND_IMAGE_URL_MAX_LENGTH, isBackgroundImageUrl } from '@vj/contracts';
import { IsNumber, IsOptional, Matches, Max, Min, ValidateBy } from 'class-validator';

// `background` of a background removal: exactly one of its properties (IsCompositeBackground).
@ApiSchema({ name: 'CompositeBackground', description: 'What the person is put on: exactly one of color, blur or image_url. The result is then one opaque H.264 MP4 with the sound.' })
export class CompositeBackgroundDto {
  @ApiPropertyOptional({ description: 'a colour, #RRGGBB', pattern: '^#[0-9A-Fa-f]{6}$', example: '#00b140' })
  @IsOptional()
  @Matches(BACKGROUND_COLOR, { message: '$property must be a colour written #RRGGBB' })
  color?: string;

  @ApiPropertyOptional({ description: 'the original picture blurred behind the person: 0 barely, 1 the most', minimum: 0, maximum: 1 })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1)
  blur?: number;

  @ApiPropertyOptional({
    description: `an image behind the person, scaled to cover the picture: PNG, JPEG or WebP, at most 8192 pixels a side; its transparency is ignored. Either an http(s) URL the worker fetches like a video_url (same network rules), or the video_url POST /v1/uploads returned for an upload of this account declared as image/png, image/jpeg or image/webp (PUT before the create)`,
    maxLength: BACKGROUND_IMAGE_URL_MAX_LENGTH,
    example: 'https://example.com/studio.jpg',
  })
  @IsOptional()
  @ValidateBy({
    name: 'isBackgroundImageUrl',
    validator: {
      validate: isBackgroundImageUrl,
      defaultMessage: () => `$property must be an http(s) URL of at most ${BACKGROUND_IMAGE_URL_MAX_LENGTH} characters without credentials, or the upload:// URL of an image upload`,
    },
  })
  image_url?: string;
}
