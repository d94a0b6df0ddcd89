import { CLEAN_AUDIO_DEFAULTS, CLEAN_AUDIO_VIDEO_TYPE, withDefaults } from '@vj/contracts';
import { CreateCleanAudioVideoDto, ExportCleanAudioVideoDto } from '@vj/http-contracts';
import { resourceNames, type GatewayJobType } from './gateway-job-type';

export const CLEAN_AUDIO_VIDEO: GatewayJobType<'clean-audio-video', CreateCleanAudioVideoDto> = {
  names: resourceNames(CLEAN_AUDIO_VIDEO_TYPE),
  body: CreateCleanAudioVideoDto,
  options: (body) => withDefaults(body, CLEAN_AUDIO_DEFAULTS),
  // A remix of the job's kept stems at other options (decision 0093).
  exports: {
    body: ExportCleanAudioVideoDto,
    options: (body: ExportCleanAudioVideoDto, source) => withDefaults(body, withDefaults(source, CLEAN_AUDIO_DEFAULTS)),
  },
};
