import { CLEAN_AUDIO_DEFAULTS } from '@vj/contracts';
import { CreateCleanAudioVideoDto, ExportCleanAudioVideoDto } from '@vj/http-contracts';
import type { GatewayJobType } from './gateway-job-type';

export const CLEAN_AUDIO_VIDEO: GatewayJobType<'clean-audio-video', CreateCleanAudioVideoDto> = {
  names: { type: 'clean-audio-video', schema: 'CleanAudioVideoJob', reportSchema: 'CleanAudioVideoReport', operation: 'CleanAudioVideo', noun: 'clean-audio' },
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
