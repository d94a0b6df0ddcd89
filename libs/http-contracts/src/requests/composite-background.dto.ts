import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { BACKGROUND_COLOR } from '@vj/contracts';
import { IsNumber, IsOptional, Matches, Max, Min } from 'class-validator';

// `background` of a background removal: exactly one of its properties (IsCompositeBackground).
@ApiSchema({ name: 'CompositeBackground', description: 'What the person is put on: exactly one of color or blur. The result is then one opaque H.264 MP4 with the sound.' })
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
}
