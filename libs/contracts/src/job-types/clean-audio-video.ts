import { defineJobType } from './job-type-definition';

export interface CleanAudioVideoOptions {
  strength: number;
  normalize_loudness: boolean;
  target_lufs: number;
  // Set only by POST /v1/clean-audio-video/{job_id}/exports: this job remixes that job's stems, and is
  // priced by the job type's export line (decision 0093). Never taken from a create's body.
  export_of?: string;
}

export const CLEAN_AUDIO_DEFAULTS: CleanAudioVideoOptions = {
  strength: 0.874,
  normalize_loudness: true,
  target_lufs: -19,
};

export const CLEAN_AUDIO_VIDEO_TYPE = defineJobType<'clean-audio-video', CleanAudioVideoOptions>({
  type: 'clean-audio-video',
  names: { schema: 'CleanAudioVideoJob', reportSchema: 'CleanAudioVideoReport', operation: 'CleanAudioVideo', noun: 'clean-audio' },
  defaults: CLEAN_AUDIO_DEFAULTS,
  booleanOptions: ['normalize_loudness'],
  price: {
    credits_per_second: 1,
    option_multipliers: {},
    minimum_credits: 5,
    max_duration_seconds: 1800,
    // A remix of kept stems (decision 0093): a tenth of the job, whose denoising is most of its cost.
    export: { credits_per_second: 0.1, minimum_credits: 1 },
  },
  result: 'video',
  keeps: 'stems',
  measures: 'clean-audio',
});
