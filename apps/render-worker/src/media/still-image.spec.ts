import type { VideoStreamProbe } from './parse-probe';
import { stillImageReason } from './still-image';

type Stream = Pick<VideoStreamProbe, 'codecName' | 'nbFrames' | 'durationSeconds' | 'fps'>;
const video = (overrides: Partial<Stream>): Stream => ({ codecName: 'h264', nbFrames: null, durationSeconds: null, fps: 25, ...overrides });

// Probes of real files (ffprobe 5.1), as parseProbe reads them.
describe('stillImageReason', () => {
  it.each<[string, Partial<Stream>]>([
    ['a one-frame H.264 MP4 (nb_frames 1)', { nbFrames: 1, durationSeconds: 0.04 }],
    ['a one-frame PNG in MP4', { codecName: 'png', nbFrames: 1, durationSeconds: 0.04 }],
    ['a one-frame H.264 Matroska (no count, DURATION one frame)', { durationSeconds: 0.04 }],
    ['a one-frame H.264 MPEG-TS', { durationSeconds: 0.04 }],
    ['a one-frame MJPEG Matroska', { codecName: 'mjpeg', durationSeconds: 0.04 }],
    ['a PNG stream that says nothing of its length', { codecName: 'png' }],
  ])('finds %s a still image', (_name, stream) => {
    expect(stillImageReason(video(stream))).toEqual(expect.any(String));
  });

  it.each<[string, Partial<Stream>]>([
    ['a two-frame H.264 MP4', { nbFrames: 2, durationSeconds: 0.08 }],
    ['a two-frame H.264 Matroska', { durationSeconds: 0.08 }],
    ['motion JPEG in AVI', { codecName: 'mjpeg', nbFrames: 25, durationSeconds: 1 }],
    ['a PNG-coded animation in Matroska', { codecName: 'png', durationSeconds: 1 }],
    ['an H.264 stream that says nothing of its length (decoding counts its frames)', {}],
    ['a stream with no frame rate', { fps: null, durationSeconds: 0.04 }],
  ])('lets %s through', (_name, stream) => {
    expect(stillImageReason(video(stream))).toBeNull();
  });
});
