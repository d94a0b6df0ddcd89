import type { MediaProbe, VideoStreamProbe } from '../media';
import { probedDuration } from './probed-duration';

const video = (nbFrames: number | null): VideoStreamProbe => ({
  codecName: 'h264',
  width: 320,
  height: 240,
  fps: 25,
  frameRate: '25/1',
  nbFrames,
  durationSeconds: 2,
  rotation: 0,
  colorSpace: null,
  colorPrimaries: null,
  colorTransfer: null,
});
const probe = (formatName: string, durationSeconds: number | null, extra: Partial<MediaProbe> = {}): MediaProbe => ({
  formatName,
  durationSeconds,
  video: video(null),
  audio: null,
  ...extra,
});
const MP4 = 'mov,mp4,m4a,3gp,3g2,mj2';

describe('probedDuration', () => {
  it('returns the container duration of a whole file unrounded, whatever the container', () => {
    expect(probedDuration(probe('mpegts', 20.023222), true)).toBe(20.023222);
    expect(probedDuration(probe('avi', 20.04), true)).toBe(20.04);
  });

  it('falls back to the audio stream duration when the container has none', () => {
    const audio = { codecName: 'opus', sampleRate: 48000, channels: 1, durationSeconds: 2.008, language: null };
    expect(probedDuration(probe('matroska,webm', null, { audio }), true)).toBe(2.008);
    expect(probedDuration(probe('matroska,webm', null, { audio }), false)).toBe(2.008);
  });

  it('returns null when neither the container nor a stream has a duration', () => {
    expect(probedDuration(probe('matroska,webm', null), true)).toBeNull();
  });

  it('trusts the start of a Matroska or WebM file: its header states the duration', () => {
    expect(probedDuration(probe('matroska,webm', 20.023), false)).toBe(20.023);
  });

  it('trusts the start of an MP4 whose moov has sample tables', () => {
    expect(probedDuration(probe(MP4, 20, { video: video(500) }), false)).toBe(20);
  });

  it('gives null for the start of a fragmented MP4, where ffprobe reports only the fragments it read', () => {
    expect(probedDuration(probe(MP4, 10.023281, { video: video(null) }), false)).toBeNull();
    expect(probedDuration(probe(MP4, 10.023281, { video: null }), false)).toBeNull();
  });

  it('gives null for the start of an MPEG-TS, AVI or FLV file, whose duration ffprobe estimates from what it read', () => {
    expect(probedDuration(probe('mpegts', 3.94), false)).toBeNull();
    expect(probedDuration(probe('avi', 3.98), false)).toBeNull();
    expect(probedDuration(probe('flv', 20.023), false)).toBeNull();
  });
});
