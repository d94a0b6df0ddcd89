import { ApiSchema } from '@nestjs/swagger';
import { CLEAN_AUDIO_DEFAULTS } from '@vj/contracts';
import { NormalizeLoudnessProperty, StrengthProperty, TargetLufsProperty } from './clean-audio-properties';
import { VideoUrlProperty, WebhookUrlProperty } from './create-job-properties';

// The name generated clients see.
@ApiSchema({ name: 'CreateCleanAudioVideoJobRequest' })
export class CreateCleanAudioVideoDto {
  @VideoUrlProperty()
  video_url!: string;

  @StrengthProperty({ default: CLEAN_AUDIO_DEFAULTS.strength })
  strength?: number;

  @NormalizeLoudnessProperty({ default: CLEAN_AUDIO_DEFAULTS.normalize_loudness })
  normalize_loudness?: boolean;

  @TargetLufsProperty({ default: CLEAN_AUDIO_DEFAULTS.target_lufs })
  target_lufs?: number;

  @WebhookUrlProperty()
  webhook_url?: string;
}
