import { BACKGROUND_REMOVAL_DEFAULTS, CLEAN_AUDIO_DEFAULTS } from '@vj/contracts';
import { gatewayJobType } from './gateway-job-types';

describe('gateway job types', () => {
  const cleanAudio = gatewayJobType('clean-audio-video');
  const backgroundRemoval = gatewayJobType('video-background-removal');

  it('fills every absent clean-audio option with its default', () => {
    expect(cleanAudio.options({ video_url: 'https://a.test/v.mp4' })).toEqual(CLEAN_AUDIO_DEFAULTS);
  });

  it('keeps given clean-audio options, including falsy ones', () => {
    expect(cleanAudio.options(Object.assign(new cleanAudio.body(), { video_url: 'x', strength: 0, normalize_loudness: false }))).toEqual({ strength: 0, normalize_loudness: false, target_lufs: -19 });
  });

  it('fills absent background-removal options with their defaults and keeps given ones', () => {
    expect(backgroundRemoval.options({ video_url: 'x' })).toEqual(BACKGROUND_REMOVAL_DEFAULTS);
    expect(backgroundRemoval.options(Object.assign(new backgroundRemoval.body(), { video_url: 'x', output_codec: 'h264', subject_is_person: false }))).toEqual({
      output_codec: 'h264',
      refine_foreground_edges: true,
      subject_is_person: false,
    });
  });
});
