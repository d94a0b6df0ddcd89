import { ApiSchema, PickType } from '@nestjs/swagger';
import { CreateVideoBackgroundRemovalDto } from './create-video-background-removal.dto';

// POST /v1/video-background-removal/{job_id}/exports (decision 0094): the deliverable to encode from the
// job's kept matte, described as a create describes it (left out: a VP9 WebM with alpha, no
// background). The matte itself, and so refine_foreground_edges and subject_is_person, are the job's.
@ApiSchema({ name: 'ExportVideoBackgroundRemovalJobRequest' })
export class ExportVideoBackgroundRemovalDto extends PickType(CreateVideoBackgroundRemovalDto, ['output_codec', 'background', 'webhook_url'] as const) {}
