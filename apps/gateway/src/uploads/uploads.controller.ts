import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CreateUploadDto, RequestUploadPartsDto } from '@vj/http-contracts';
import { AccountId } from '../auth/account-id.decorator';
import { ApiBody, ApiRequestErrors, Operation } from '../http/openapi-responses';
import { UuidPipe } from '../http/uuid.pipe';
import { CreateUploadService, type UploadTicket } from './create-upload.service';
import { MultipartUploadsService, type UploadPartUrls, type UploadState } from './multipart-uploads.service';

@ApiTags('uploads')
@ApiBearerAuth()
@Controller('v1/uploads')
export class UploadsController {
  constructor(
    private readonly createUpload: CreateUploadService,
    private readonly multipart: MultipartUploadsService,
  ) {}

  @Operation('createUpload', 'Start an upload', 'Answers a presigned PUT URL for the declared size and type, or with multipart: true the layout of its parts, and the video_url a job takes.')
  @Post()
  @HttpCode(201)
  @ApiBody(201, 'Upload', 'PUT exactly file_size bytes with Content-Type: <content_type> to upload_url (it is signed for both), then pass video_url when creating a job; for a multipart upload, PUT each part to its URL (POST /v1/uploads/{upload_id}/parts), then complete it')
  @ApiRequestErrors(400, 401, 413, 422)
  create(@AccountId() accountId: string, @Body() body: CreateUploadDto): Promise<UploadTicket> {
    return this.createUpload.execute(accountId, body);
  }

  @Operation('getUpload', 'Read an upload', "Whether it is complete, and for a multipart upload the parts S3 holds: a client resumes by sending the others.")
  @Get(':upload_id')
  @ApiBody(200, 'UploadState', 'the upload')
  @ApiRequestErrors(401, 404)
  get(@AccountId() accountId: string, @Param('upload_id', UuidPipe) uploadId: string): Promise<UploadState> {
    return this.multipart.state(accountId, uploadId);
  }

  @Operation('createUploadPartUrls', 'Sign PUT URLs for parts of a multipart upload', 'Each URL takes exactly its part\'s size; ask only for the parts still to send.')
  @Post(':upload_id/parts')
  @HttpCode(200)
  @ApiBody(200, 'UploadPartUrls', 'PUT each part\'s bytes to its url; the answer\'s ETag header is the part\'s')
  @ApiRequestErrors(400, 401, 404, 409, 422)
  parts(@AccountId() accountId: string, @Param('upload_id', UuidPipe) uploadId: string, @Body() body: RequestUploadPartsDto): Promise<UploadPartUrls> {
    return this.multipart.partUrls(accountId, uploadId, body.part_numbers);
  }

  @Operation('completeUpload', 'Complete a multipart upload', 'Assembles the parts into the file once every part is stored at its size; 422 names the parts missing. Completing again answers the same.')
  @Post(':upload_id/complete')
  @HttpCode(200)
  @ApiBody(200, 'UploadState', 'the upload, complete: a job may now use its video_url')
  @ApiRequestErrors(401, 404, 409, 422)
  complete(@AccountId() accountId: string, @Param('upload_id', UuidPipe) uploadId: string): Promise<UploadState> {
    return this.multipart.complete(accountId, uploadId);
  }

  @Operation('abortUpload', 'Abort a multipart upload', 'Frees the parts stored so far; the upload_id names nothing from then on.')
  @Delete(':upload_id')
  @HttpCode(204)
  @ApiResponse({ status: 204, description: 'aborted: its parts are freed' })
  @ApiRequestErrors(401, 404, 409)
  async abort(@AccountId() accountId: string, @Param('upload_id', UuidPipe) uploadId: string): Promise<void> {
    await this.multipart.abort(accountId, uploadId);
  }
}
