import { CLEAN_AUDIO_DEFAULTS, CLEAN_AUDIO_VIDEO_TYPE } from '@vj/contracts';
import { CreateCleanAudioVideoDto, ExportCleanAudioVideoDto } from '@vj/http-contracts';
import { resourceNames, type GatewayJobType } from './gateway-job-type';

export const CLEAN_AUDIO_VIDEO: GatewayJobType<'clean-audio-video', CreateCleanAudioVideoDto> = {
  names: resourceNames(CLEAN_AUDIO_VIDEO_TYPE),
  body: CreateCleanAudioVideoDto,
  options: (body) => ({
    strength: body.strength ?? CLEAN_AUDIO_DEFAULTS.strength,
    normalize_loudness: body.normalize_loudness ?? CLEAN_AUDIO_DEFAULTS.normalize_loudness,
    target_lufs: body.target_lufs ?? CLEAN_AUDIO_DEFAULTS.target_lufs,
  }),
  // A remix of the job's kept stems at other options (decision 0093).
  exports: {
    body: ExportCleanAudioVideoDto,
    options: (body: ExportCleanAudioVideoDto, source) => ({
      strength: body.strength ?? source.strength,
      normalize_loudness: body.normalize_loudness ?? source.normalize_loudness,
      target_lufs: body.target_lufs ?? source.target_lufs,
    }),
  },
};
