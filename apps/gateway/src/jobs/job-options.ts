import { BACKGROUND_REMOVAL_DEFAULTS, CLEAN_AUDIO_DEFAULTS, type CleanAudioVideoOptions, type VideoBackgroundRemovalOptions } from '@vj/contracts';
import type { CreateCleanAudioVideoDto, CreateVideoBackgroundRemovalDto } from '@vj/http-contracts';

// Defaults apply when a property is absent (docs/spec/api-v1.md); the jobs service always gets
// complete options.

export function backgroundRemovalOptions(dto: CreateVideoBackgroundRemovalDto): VideoBackgroundRemovalOptions {
  return {
    output_codec: dto.output_codec ?? BACKGROUND_REMOVAL_DEFAULTS.output_codec,
    refine_foreground_edges: dto.refine_foreground_edges ?? BACKGROUND_REMOVAL_DEFAULTS.refine_foreground_edges,
    subject_is_person: dto.subject_is_person ?? BACKGROUND_REMOVAL_DEFAULTS.subject_is_person,
  };
}

export function cleanAudioOptions(dto: CreateCleanAudioVideoDto): CleanAudioVideoOptions {
  return {
    strength: dto.strength ?? CLEAN_AUDIO_DEFAULTS.strength,
    normalize_loudness: dto.normalize_loudness ?? CLEAN_AUDIO_DEFAULTS.normalize_loudness,
    target_lufs: dto.target_lufs ?? CLEAN_AUDIO_DEFAULTS.target_lufs,
  };
}
