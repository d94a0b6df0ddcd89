import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CreateUploadDto } from '@vj/http-contracts';
import { AccountId } from '../auth/account-id.decorator';
import { ApiBody, ApiRequestErrors, Operation } from '../http/openapi-responses';
import { CreateUploadService, type UploadTicket } from './create-upload.service';

@ApiTags('uploads')
@ApiBearerAuth()
@Controller('v1/uploads')
export class UploadsController {
  constructor(private readonly createUpload: CreateUploadService) {}

  @Operation('createUpload', 'Start an upload', 'Answers a presigned PUT URL for the declared size and type, and the video_url a job takes.')
  @Post()
  @HttpCode(201)
  @ApiBody(201, 'Upload', 'PUT exactly file_size bytes with Content-Type: <content_type> to upload_url (it is signed for both), then pass video_url when creating a job')
  @ApiRequestErrors(400, 401, 413, 422)
  create(@AccountId() accountId: string, @Body() body: CreateUploadDto): Promise<UploadTicket> {
    return this.createUpload.execute(accountId, body);
  }
}
