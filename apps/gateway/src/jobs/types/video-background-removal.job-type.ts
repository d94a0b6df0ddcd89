import { BACKGROUND_IMAGE_CONTENT_TYPES, BACKGROUND_REMOVAL_DEFAULTS, VIDEO_BACKGROUND_REMOVAL_TYPE, isUploadUrl, type CompositeBackground, type VideoBackgroundRemovalOptions } from '@vj/contracts';
import { CreateVideoBackgroundRemovalDto, ExportVideoBackgroundRemovalDto, type CompositeBackgroundDto } from '@vj/http-contracts';
import { resourceNames, type GatewayJobType } from './gateway-job-type';

export const VIDEO_BACKGROUND_REMOVAL: GatewayJobType<'video-background-removal', CreateVideoBackgroundRemovalDto> = {
  names: resourceNames(VIDEO_BACKGROUND_REMOVAL_TYPE),
  body: CreateVideoBackgroundRemovalDto,
  options: (body) => ({
    ...deliverable(body),
    refine_foreground_edges: body.refine_foreground_edges ?? BACKGROUND_REMOVAL_DEFAULTS.refine_foreground_edges,
    subject_is_person: body.subject_is_person ?? BACKGROUND_REMOVAL_DEFAULTS.subject_is_person,
  }),
  // A background image that is one of the account's uploads (decision 0091).
  optionUploads: ({ background }) =>
    background && 'image_url' in background && isUploadUrl(background.image_url)
      ? [{ field: 'background.image_url', url: background.image_url, contentTypes: BACKGROUND_IMAGE_CONTENT_TYPES }]
      : [],
  // Another deliverable encoded from the job's kept matte (decision 0094); the matte's options stay the job's.
  exports: {
    body: ExportVideoBackgroundRemovalDto,
    options: (body: ExportVideoBackgroundRemovalDto, source) => ({
      ...deliverable(body),
      refine_foreground_edges: source.refine_foreground_edges,
      subject_is_person: source.subject_is_person,
    }),
  },
};

// What is delivered: a composite is one opaque H.264 MP4 (the body's validation allows no other codec with it).
function deliverable(body: Pick<CreateVideoBackgroundRemovalDto, 'output_codec' | 'background'>): Pick<VideoBackgroundRemovalOptions, 'output_codec' | 'background'> {
  return {
    output_codec: body.background ? 'h264' : (body.output_codec ?? BACKGROUND_REMOVAL_DEFAULTS.output_codec),
    ...(body.background && { background: compositeBackground(body.background) }),
  };
}

function compositeBackground(background: CompositeBackgroundDto): CompositeBackground {
  if (typeof background.color === 'string') return { color: background.color.toLowerCase() };
  return typeof background.image_url === 'string' ? { image_url: background.image_url } : { blur: background.blur as number };
}
