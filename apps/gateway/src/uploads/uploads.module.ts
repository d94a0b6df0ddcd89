import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CreateUploadService } from './create-upload.service';
import { MultipartUploadsService } from './multipart-uploads.service';
import { UploadsController } from './uploads.controller';
import { UploadsRepository } from './uploads.repository';

// Uploads declared through the API and put straight into object storage, in one PUT or in parts
// (decision 0099); the repository is what jobs read an `upload://` input from.
@Module({
  controllers: [UploadsController],
  providers: [{ provide: UploadsRepository, useFactory: (dataSource: DataSource) => new UploadsRepository(dataSource), inject: [DataSource] }, CreateUploadService, MultipartUploadsService],
  exports: [UploadsRepository, MultipartUploadsService],
})
export class UploadsModule {}
