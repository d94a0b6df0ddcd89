import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MediaError } from './media-error';
import { parseProbe } from './parse-probe';

// Real ffprobe output (trimmed to the fields that matter) of small generated files and of
// ../shared/media/video/again.mkv; in the cover-art one the picture was moved first.
function fixture(name: string): string {
  return readFileSync(join(__dirname, '__fixtures__', 'probe', `${name}.json`), 'utf8');
}

describe('parseProbe', () => {
  it('reads the video and audio streams of an H.264/AAC MP4', () => {
    expect(parseProbe(fixture('h264-aac-cover-art'))).toEqual({
      formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
      durationSeconds: 2,
      video: { codecName: 'h264', width: 320, height: 240, fps: 25, frameRate: '25/1', nbFrames: 50, durationSeconds: 2, rotation: 0, colorSpace: null, colorPrimaries: null, colorTransfer: null },
      audio: { codecName: 'aac', sampleRate: 44100, channels: 2, durationSeconds: 2, language: null },
    });
  });

  it('skips an attached picture listed before the real video stream', () => {
    const probe = parseProbe(fixture('h264-aac-cover-art'));
    expect(JSON.parse(fixture('h264-aac-cover-art')).streams[0].codec_name).toBe('png');
    expect(probe.video?.codecName).toBe('h264');
  });

  it('takes stream durations from the Matroska DURATION tag and keeps the language', () => {
    const probe = parseProbe(fixture('mpeg4-two-audio'));
    expect(probe.video).toEqual({ codecName: 'mpeg4', width: 320, height: 240, fps: 30000 / 1001, frameRate: '30000/1001', nbFrames: null, durationSeconds: 2.048, rotation: 0, colorSpace: null, colorPrimaries: null, colorTransfer: null });
    expect(probe.audio).toEqual({ codecName: 'mp3', sampleRate: 44100, channels: 1, durationSeconds: 2.046, language: 'fra' });
  });

  it('reads VP9/Opus WebM', () => {
    const probe = parseProbe(fixture('vp9-opus'));
    expect(probe.video?.codecName).toBe('vp9');
    expect(probe.audio).toMatchObject({ codecName: 'opus', sampleRate: 48000, channels: 1, durationSeconds: 2.008 });
  });

  it('reports no audio stream for a video without sound', () => {
    const probe = parseProbe(fixture('h264-no-audio'));
    expect(probe.audio).toBeNull();
    expect(probe.video).toMatchObject({ codecName: 'h264', width: 640, height: 480, fps: 30 });
    expect(probe.durationSeconds).toBe(2.6);
  });

  it('reports no video stream for an audio file', () => {
    const probe = parseProbe(fixture('audio-only'));
    expect(probe.video).toBeNull();
    expect(probe.audio).toMatchObject({ codecName: 'pcm_s16le', sampleRate: 48000, channels: 1 });
  });

  it('treats unknown frame rates and durations as null', () => {
    const json = JSON.stringify({
      format: { format_name: 'matroska,webm', duration: 'N/A' },
      streams: [{ codec_type: 'video', codec_name: 'vp8', width: 2, height: 2, avg_frame_rate: '0/0', r_frame_rate: '0/0' }],
    });
    expect(parseProbe(json)).toMatchObject({ durationSeconds: null, video: { fps: null, nbFrames: null, durationSeconds: null } });
  });

  it('reads the rotation a player applies from the display matrix or the rotate tag, and the colour matrix', () => {
    const video = (stream: object) =>
      parseProbe(JSON.stringify({ format: { format_name: 'mov' }, streams: [{ codec_type: 'video', codec_name: 'h264', width: 4, height: 2, ...stream }] })).video;
    expect(video({ side_data_list: [{ side_data_type: 'Display Matrix', rotation: -90 }] })?.rotation).toBe(90);
    expect(video({ side_data_list: [{ side_data_type: 'Display Matrix', rotation: 90 }] })?.rotation).toBe(270);
    expect(video({ tags: { rotate: '180' } })?.rotation).toBe(180);
    expect(video({})).toMatchObject({ rotation: 0, colorSpace: null, frameRate: null });
    expect(video({ color_space: 'bt709', r_frame_rate: '25/1', avg_frame_rate: '0/0' })).toMatchObject({ colorSpace: 'bt709', frameRate: '25/1' });
  });

  it('reads the colour tags an encoder can be given back, and none that no encoder option names', () => {
    const video = (stream: object) =>
      parseProbe(JSON.stringify({ format: { format_name: 'mov' }, streams: [{ codec_type: 'video', codec_name: 'h264', width: 4, height: 2, ...stream }] })).video;
    expect(video({ color_space: 'smpte170m', color_primaries: 'bt470bg', color_transfer: 'iec61966-2-1' })).toMatchObject({
      colorSpace: 'smpte170m',
      colorPrimaries: 'bt470bg',
      colorTransfer: 'iec61966-2-1',
    });
    for (const name of ['unknown', 'unspecified', 'reserved', 'reserved0', 'bt709; rm -rf', 'x'.repeat(33)]) {
      expect(video({ color_space: name, color_primaries: name, color_transfer: name })).toMatchObject({ colorSpace: null, colorPrimaries: null, colorTransfer: null });
    }
  });

  it('fails with invalid_file when ffprobe describes no container', () => {
    for (const output of ['', 'not json', '{}', 'null', '{"streams":[]}']) {
      expect(() => parseProbe(output)).toThrow(MediaError);
      try {
        parseProbe(output);
      } catch (error) {
        expect(error).toMatchObject({ code: 'invalid_file', details: [{ type: 'unreadable_file' }] });
      }
    }
  });
});
