import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsBoolean, IsDefined, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';

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

  @ApiProperty({ minimum: 1, description: 'bytes; at most UPLOAD_MULTIPART_MAX_BYTES (50 GiB by default; 413 above); above UPLOAD_MAX_BYTES (2 GiB by default) the upload is multipart' })
  @IsDefined()
  @IsInt()
  @Min(1)
  file_size!: number;

  @ApiProperty({
    required: false,
    description:
      'true: a multipart upload (decision 0099): the answer has parts instead of upload_url; ask POST /v1/uploads/{upload_id}/parts for the parts\' URLs, resume from GET /v1/uploads/{upload_id}, then POST .../complete. Left out: multipart when file_size is above UPLOAD_MAX_BYTES. false: one PUT (413 above UPLOAD_MAX_BYTES)',
  })
  @IsOptional()
  @IsBoolean()
  multipart?: boolean;
}

// S3 numbers a multipart upload's parts 1 to 10,000.
export const MAX_UPLOAD_PARTS = 10_000;

@ApiSchema({ name: 'UploadPartsRequest' })
export class RequestUploadPartsDto {
  @ApiProperty({ type: [Number], minItems: 1, maxItems: 1000, description: 'the parts to sign a PUT URL for (each at most once): those the client still has to send' })
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @ArrayUnique()
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(MAX_UPLOAD_PARTS, { each: true })
  part_numbers!: number[];
}
