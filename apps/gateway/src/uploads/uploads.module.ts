import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CreateUploadService } from './create-upload.service';
import { UploadsController } from './uploads.controller';
import { UploadsRepository } from './uploads.repository';

// Uploads declared through the API and put straight into object storage; the repository is what
// jobs read an `upload://` input from.
@Module({
  controllers: [UploadsController],
  providers: [{ provide: UploadsRepository, useFactory: (dataSource: DataSource) => new UploadsRepository(dataSource), inject: [DataSource] }, CreateUploadService],
  exports: [UploadsRepository],
})
export class UploadsModule {}
