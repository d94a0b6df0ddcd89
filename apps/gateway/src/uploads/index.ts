// The uploads feature's public surface: what other gateway folders may import (eslint.config.mjs
// enforces it).
export { UploadsModule } from './uploads.module';
export { UploadsRepository } from './uploads.repository';
export { MultipartUploadsService } from './multipart-uploads.service';
export { uploadSizeLimit } from './upload-size-limit';
