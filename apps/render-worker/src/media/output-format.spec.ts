import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MediaError } from './media-error';
import { outputFormatFor } from './output-format';
import { parseProbe, type MediaProbe } from './parse-probe';

const AUDIO = { codecName: 'aac', sampleRate: 48000, channels: 2, durationSeconds: 10, language: null };

function probeWith(videoCodec: string | null, audio: MediaProbe['audio'] = AUDIO): MediaProbe {
  const video = videoCodec ? { codecName: videoCodec, width: 320, height: 240, fps: 25, frameRate: '25/1', nbFrames: null, durationSeconds: 2, rotation: 0, colorSpace: null, colorPrimaries: null, colorTransfer: null } : null;
  return { formatName: 'matroska,webm', durationSeconds: 10, video, audio };
}

function fixture(name: string): MediaProbe {
  return parseProbe(readFileSync(join(__dirname, '__fixtures__', 'probe', `${name}.json`), 'utf8'));
}

function failureOf(probe: MediaProbe): MediaError {
  try {
    outputFormatFor(probe);
  } catch (error) {
    if (error instanceof MediaError) return error;
  }
  throw new Error('expected a MediaError');
}

describe('outputFormatFor', () => {
  it.each(['h264', 'hevc', 'av1', 'mpeg4'])('delivers %s video as MP4 with AAC and faststart', (codec) => {
    expect(outputFormatFor(probeWith(codec))).toEqual({
      muxer: 'mp4',
      contentType: 'video/mp4',
      fileExtension: 'mp4',
      audioCodecArgs: ['-c:a', 'aac', '-aac_coder', 'fast', '-b:a', '128k'],
      muxerOptions: { movflags: '+faststart' },
      audioTap: { muxer: 'adts', demuxer: 'aac', primingSamples: 1024 },
    });
  });

  it.each(['vp8', 'vp9'])('delivers %s video as WebM with Opus', (codec) => {
    expect(outputFormatFor(probeWith(codec))).toEqual({
      muxer: 'webm',
      contentType: 'video/webm',
      fileExtension: 'webm',
      audioCodecArgs: ['-c:a', 'libopus', '-b:a', '96k'],
      muxerOptions: {},
      audioTap: { muxer: 'ogg', demuxer: 'ogg', primingSamples: 0 },
    });
  });

  it('follows the probed codec of real files', () => {
    expect(outputFormatFor(fixture('hevc-aac')).muxer).toBe('mp4');
    expect(outputFormatFor(fixture('mpeg4-two-audio')).muxer).toBe('mp4');
    expect(outputFormatFor(fixture('vp9-opus')).muxer).toBe('webm');
  });

  it('fails with invalid_file naming an unsupported codec', () => {
    const error = failureOf(fixture('prores-pcm'));
    expect(error.code).toBe('invalid_file');
    expect(error.details).toEqual([{ type: 'unsupported_codec', message: expect.stringContaining('"prores"') }]);
    // Not fooled by names that exist on every object.
    expect(failureOf(probeWith('constructor')).details?.[0].type).toBe('unsupported_codec');
  });

  it('fails with invalid_file when the file has no video stream', () => {
    const error = failureOf(fixture('audio-only'));
    expect(error.code).toBe('invalid_file');
    expect(error.details).toEqual([{ type: 'no_video_stream', message: expect.any(String) }]);
  });

  it('fails with invalid_file saying there is no audio stream', () => {
    const error = failureOf(fixture('h264-no-audio'));
    expect(error.code).toBe('invalid_file');
    expect(error.details).toEqual([{ type: 'no_audio_stream', message: 'The file contains no audio stream to clean' }]);
  });
});
