import { MediaError } from './media-error';
import type { MediaProbe } from './parse-probe';

// docs/spec/video-jobs-resources.md 2.5: the container and audio codec follow the input's video codec,
// so the picture can be copied bit for bit into a container that accepts it.

export interface OutputFormat {
  muxer: 'mp4' | 'webm';
  contentType: 'video/mp4' | 'video/webm';
  fileExtension: 'mp4' | 'webm';
  audioCodecArgs: readonly string[];
  // faststart: the index goes before the media so players can start before the download ends.
  muxerOptions: Readonly<Record<string, string>>;
  // The container a copy of the encoded audio alone is streamed in, to be measured while muxing:
  // ADTS for AAC, Ogg for Opus. `primingSamples` (at 48 kHz): what its decoder gives before the first
  // sample a player of the delivered file plays. ffmpeg's AAC encoder starts with 1024 samples of
  // priming that the MP4's edit list skips and ADTS cannot state; Ogg states Opus's pre-skip itself.
  audioTap: { muxer: 'adts' | 'ogg'; demuxer: 'aac' | 'ogg'; primingSamples: number };
}

const MP4: OutputFormat = {
  muxer: 'mp4',
  contentType: 'video/mp4',
  fileExtension: 'mp4',
  // The fast coder: a third of the default's time on these machines, and no less faithful at 128k
  // (31.5 dB SNR against the PCM it encoded, against 26 dB for twoloop; decision 0036).
  audioCodecArgs: ['-c:a', 'aac', '-aac_coder', 'fast', '-b:a', '128k'],
  muxerOptions: { movflags: '+faststart' },
  audioTap: { muxer: 'adts', demuxer: 'aac', primingSamples: 1024 },
};

const WEBM: OutputFormat = {
  muxer: 'webm',
  contentType: 'video/webm',
  fileExtension: 'webm',
  audioCodecArgs: ['-c:a', 'libopus', '-b:a', '96k'],
  muxerOptions: {},
  audioTap: { muxer: 'ogg', demuxer: 'ogg', primingSamples: 0 },
};

const FORMAT_BY_VIDEO_CODEC = new Map<string, OutputFormat>([
  ['h264', MP4],
  ['hevc', MP4],
  ['av1', MP4],
  ['mpeg4', MP4],
  ['vp8', WEBM],
  ['vp9', WEBM],
]);

// ffmpeg's resampler mixes at most this many channels into one (SWR_CH_MAX): past it the decode
// fails with nothing said about why.
const MAX_AUDIO_CHANNELS = 64;

export function outputFormatFor(probe: MediaProbe): OutputFormat {
  if (!probe.video) {
    throw new MediaError('invalid_file', 'The file has no video stream', [
      { type: 'no_video_stream', message: 'The file contains no video stream to keep' },
    ]);
  }
  const format = FORMAT_BY_VIDEO_CODEC.get(probe.video.codecName);
  if (!format) {
    const supported = [...FORMAT_BY_VIDEO_CODEC.keys()].join(', ');
    throw new MediaError('invalid_file', `Unsupported video codec: ${probe.video.codecName}`, [
      { type: 'unsupported_codec', message: `Video codec "${probe.video.codecName}" is not supported; supported: ${supported}` },
    ]);
  }
  if (!probe.audio) {
    throw new MediaError('invalid_file', 'The file has no audio stream', [
      { type: 'no_audio_stream', message: 'The file contains no audio stream to clean' },
    ]);
  }
  if (probe.audio.channels > MAX_AUDIO_CHANNELS) {
    throw new MediaError('input_validation', `The audio has more than ${MAX_AUDIO_CHANNELS} channels`, [
      { type: 'too_many_audio_channels', message: `The audio has ${probe.audio.channels} channels; at most ${MAX_AUDIO_CHANNELS} are mixed down to mono`, field: 'video_url' },
    ]);
  }
  return format;
}
