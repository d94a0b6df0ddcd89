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

  // Images only of the three kinds a background image may be (decision 0091).
  @ApiProperty({ example: 'video/mp4', description: 'a video/*, audio/* or application/* type for a video; image/png, image/jpeg or image/webp for a background image' })
  @IsDefined()
  @IsString()
  @Matches(/^((video|audio|application)\/[\w.+-]+|image\/(png|jpeg|webp))$/, { message: 'content_type must be a video/*, audio/* or application/* MIME type, or image/png, image/jpeg or image/webp' })
  @MaxLength(255)
  content_type!: string;

  @ApiProperty({ minimum: 1, description: 'bytes; at most UPLOAD_MAX_BYTES (413 above)' })
  @IsDefined()
  @IsInt()
  @Min(1)
  file_size!: number;
}
