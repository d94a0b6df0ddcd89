import { Inject, Injectable } from '@nestjs/common';
import type { JobObject, JobRecordV1, StoredFileV1 } from '@vj/contracts';
import { ObjectStorage } from '@vj/storage';
import { GATEWAY_CONFIG } from '../config/gateway-config.token';
import type { GatewayConfig } from '../gateway.env';
import { renderJob } from '@vj/contracts';

// Renders job records for reads, with result URLs presigned fresh on every read.
@Injectable()
export class JobPresenter {
  constructor(
    private readonly storage: ObjectStorage,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  present(record: JobRecordV1): Promise<JobObject> {
    return renderJob(record, (file: StoredFileV1) =>
      this.storage.presignGet(file.object_key, this.config.RESULT_URL_TTL_SECONDS, file.file_name, file.content_type),
    );
  }
}
