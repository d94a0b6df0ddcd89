import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsDefined, IsInt, IsString, Matches, MaxLength, Min, MinLength } from 'class-validator';

// The name generated clients see.
@ApiSchema({ name: 'CreateUploadRequest' })
export class CreateUploadDto {
  @ApiProperty({ maxLength: 255 })
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  // No path separators or control characters: the name ends up in a Content-Disposition header.
  @Matches(/^[^/\\\u0000-\u001f\u007f]+$/, { message: 'file_name must not contain slashes or control characters' })
  file_name!: string;

  @ApiProperty({ example: 'video/mp4' })
  @IsDefined()
  @IsString()
  @Matches(/^(video|audio|application)\/[\w.+-]+$/, { message: 'content_type must be a video/*, audio/* or application/* MIME type' })
  @MaxLength(255)
  content_type!: string;

  @ApiProperty({ minimum: 1, description: 'bytes; at most UPLOAD_MAX_BYTES (413 above)' })
  @IsDefined()
  @IsInt()
  @Min(1)
  file_size!: number;
}
