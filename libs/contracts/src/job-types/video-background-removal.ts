import { isHttpUrl } from '../http-url';
import { isUploadUrl } from '../job/job-input';
import { defineJobType } from './job-type-definition';

// vp9: one WebM with alpha; h264: an RGB video and its matte; prores: one QuickTime ProRes 4444 with
// alpha, for editing suites (decision 0084); png_sequence: one ZIP of RGBA PNGs and the sound as WAV
// (decision 0085).
export const OUTPUT_CODECS = ['vp9', 'h264', 'prores', 'png_sequence'] as const;
export type OutputCodec = (typeof OUTPUT_CODECS)[number];

// What the person is put on instead of transparency (decision 0086): a colour (#RRGGBB), the original
// picture blurred (0: barely, 1: the most), or an image scaled to cover the picture: fetched by the
// worker from an http(s) URL behind the SSRF guard (decision 0089), or one of the account's own uploads
// (upload://, an image/png, image/jpeg or image/webp upload: decision 0091). The result is then one
// opaque H.264 MP4.
export type CompositeBackground = { color: string } | { blur: number } | { image_url: string };

export const BACKGROUND_COLOR = /^#[0-9A-Fa-f]{6}$/;
export const BACKGROUND_IMAGE_URL_MAX_LENGTH = 2048;

export function isBackgroundImageUrl(value: unknown): value is string {
  return isHttpUrl(value, BACKGROUND_IMAGE_URL_MAX_LENGTH) || isUploadUrl(value);
}

// What an upload must have been declared as to be a background image.
export const BACKGROUND_IMAGE_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;

// Exactly one kind, each within its range: what the API takes, checked again where it goes into an
// ffmpeg filter graph or is fetched.
export function isCompositeBackground(value: unknown): value is CompositeBackground {
  if (typeof value !== 'object' || value === null) return false;
  const given = value as Record<string, unknown>;
  const keys = Object.keys(given);
  if (keys.length !== 1) return false;
  if (keys[0] === 'color') return typeof given.color === 'string' && BACKGROUND_COLOR.test(given.color);
  if (keys[0] === 'image_url') return isBackgroundImageUrl(given.image_url);
  return keys[0] === 'blur' && typeof given.blur === 'number' && given.blur >= 0 && given.blur <= 1;
}

export interface VideoBackgroundRemovalOptions {
  output_codec: OutputCodec;
  refine_foreground_edges: boolean;
  subject_is_person: boolean;
  // Absent: a cut-out with transparency (and in every message written before it existed).
  background?: CompositeBackground;
  // Set only by POST /v1/video-background-removal/{job_id}/exports (decision 0094), as for clean audio.
  export_of?: string;
}

export const BACKGROUND_REMOVAL_DEFAULTS: VideoBackgroundRemovalOptions = {
  output_codec: 'vp9',
  refine_foreground_edges: true,
  subject_is_person: true,
};

export const VIDEO_BACKGROUND_REMOVAL_TYPE = defineJobType<'video-background-removal', VideoBackgroundRemovalOptions>({
  type: 'video-background-removal',
  names: { schema: 'VideoBackgroundRemovalJob', reportSchema: 'VideoBackgroundRemovalReport', operation: 'VideoBackgroundRemoval', noun: 'background-removal' },
  defaults: BACKGROUND_REMOVAL_DEFAULTS,
  booleanOptions: ['refine_foreground_edges', 'subject_is_person'],
  price: {
    credits_per_second: 2,
    option_multipliers: { refine_foreground_edges: 1.5 },
    minimum_credits: 10,
    // Issue 40: a long video is cut into segments that many workers run (decision 0101).
    max_duration_seconds: 600,
    // An encode of the kept matte (decision 0094), without the model or the refinement.
    export: { credits_per_second: 0.5, minimum_credits: 2 },
  },
  result: 'files',
  keeps: 'matte',
  measures: 'cutout',
});
