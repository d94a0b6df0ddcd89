import { defineJobType } from '@vj/contracts';

// A third job type that exists only in the tests (decision 0103): the video delivered as it came.
// Registered beside the two real ones, it shows a job type is one registration.
export interface CopyVideoOptions {
  faststart: boolean;
}

export const COPY_VIDEO_TYPE = defineJobType<'copy-video', CopyVideoOptions>({
  type: 'copy-video',
  names: { schema: 'CopyVideoJob', reportSchema: 'CopyVideoReport', operation: 'CopyVideo', noun: 'copy' },
  defaults: { faststart: true },
  booleanOptions: ['faststart'],
  price: { credits_per_second: 0.5, option_multipliers: { faststart: 1.2 }, minimum_credits: 1, max_duration_seconds: 120 },
  result: 'video',
});
