import { BACKGROUND_REMOVAL_DEFAULTS } from '@vj/contracts';
import { CreateVideoBackgroundRemovalDto } from '@vj/http-contracts';
import type { GatewayJobType } from './gateway-job-type';

export const VIDEO_BACKGROUND_REMOVAL: GatewayJobType<'video-background-removal', CreateVideoBackgroundRemovalDto> = {
  names: { type: 'video-background-removal', schema: 'VideoBackgroundRemovalJob', operation: 'VideoBackgroundRemoval', noun: 'background-removal' },
  body: CreateVideoBackgroundRemovalDto,
  options: (body) => ({
    output_codec: body.output_codec ?? BACKGROUND_REMOVAL_DEFAULTS.output_codec,
    refine_foreground_edges: body.refine_foreground_edges ?? BACKGROUND_REMOVAL_DEFAULTS.refine_foreground_edges,
    subject_is_person: body.subject_is_person ?? BACKGROUND_REMOVAL_DEFAULTS.subject_is_person,
  }),
};
