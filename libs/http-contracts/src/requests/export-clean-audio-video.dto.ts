import { ApiSchema } from '@nestjs/swagger';
import { NormalizeLoudnessProperty, StrengthProperty, TargetLufsProperty } from './clean-audio-properties';
import { WebhookUrlProperty } from './create-job-properties';

const SOURCE_JOBS = "the source job's when left out";

// POST /v1/clean-audio-video/{job_id}/exports (decision 0093): the options to remix the job's kept stems
// with. Each one left out is the source job's.
@ApiSchema({ name: 'ExportCleanAudioVideoJobRequest' })
export class ExportCleanAudioVideoDto {
  @StrengthProperty({ description: SOURCE_JOBS })
  strength?: number;

  @NormalizeLoudnessProperty({ description: `${SOURCE_JOBS}; false keeps the source video's own loudness` })
  normalize_loudness?: boolean;

  @TargetLufsProperty({ description: SOURCE_JOBS })
  target_lufs?: number;

  @WebhookUrlProperty()
  webhook_url?: string;
}
