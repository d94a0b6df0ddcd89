import { MediaError } from './media-error';

// What the clean-audio job needs to know about an input, read from ffprobe's JSON.

export interface VideoStreamProbe {
  codecName: string;
  width: number;
  height: number;
  fps: number | null;
  nbFrames: number | null;
}

export interface AudioStreamProbe {
  codecName: string;
  sampleRate: number;
  channels: number;
  durationSeconds: number | null;
  language: string | null;
}

export interface MediaProbe {
  formatName: string;
  durationSeconds: number | null;
  // The first real video stream: cover art and thumbnails are skipped, as ffmpeg's `0:V` does.
  video: VideoStreamProbe | null;
  // The first audio stream, the one `0:a:0` selects.
  audio: AudioStreamProbe | null;
}

interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  nb_frames?: string;
  sample_rate?: string;
  channels?: number;
  duration?: string;
  disposition?: Record<string, number>;
  tags?: Record<string, string>;
}

interface FfprobeOutput {
  streams?: FfprobeStream[];
  format?: { format_name?: string; duration?: string };
}

export function parseProbe(json: string): MediaProbe {
  let output: FfprobeOutput;
  try {
    output = JSON.parse(json) as FfprobeOutput;
  } catch {
    throw unreadable('ffprobe printed no readable description of the file');
  }
  if (typeof output !== 'object' || output === null || !output.format?.format_name) {
    throw unreadable('ffprobe found no media container in the file');
  }
  const streams = Array.isArray(output.streams) ? output.streams : [];
  const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic && !s.disposition?.timed_thumbnails);
  const audio = streams.find((s) => s.codec_type === 'audio');
  return {
    formatName: output.format.format_name,
    durationSeconds: positiveNumber(output.format.duration),
    video: video ? parseVideo(video) : null,
    audio: audio ? parseAudio(audio) : null,
  };
}

function parseVideo(stream: FfprobeStream): VideoStreamProbe {
  return {
    codecName: stream.codec_name ?? 'unknown',
    width: stream.width ?? 0,
    height: stream.height ?? 0,
    fps: rational(stream.avg_frame_rate) ?? rational(stream.r_frame_rate),
    nbFrames: positiveNumber(stream.nb_frames),
  };
}

function parseAudio(stream: FfprobeStream): AudioStreamProbe {
  const language = stream.tags?.language;
  return {
    codecName: stream.codec_name ?? 'unknown',
    sampleRate: Number(stream.sample_rate) || 0,
    channels: stream.channels ?? 0,
    // Matroska keeps stream durations only in a DURATION tag.
    durationSeconds: positiveNumber(stream.duration) ?? clockSeconds(stream.tags?.DURATION),
    language: language && language !== 'und' ? language : null,
  };
}

function unreadable(why: string): MediaError {
  return new MediaError('invalid_file', 'The file is not a readable video', [{ type: 'unreadable_file', message: why }]);
}

function positiveNumber(text: string | undefined): number | null {
  const value = Number(text);
  return text !== undefined && Number.isFinite(value) && value > 0 ? value : null;
}

// "30000/1001" -> 29.97; "0/0" (unknown) -> null
function rational(text: string | undefined): number | null {
  const [num, den] = (text ?? '').split('/').map(Number);
  const value = num / den;
  return Number.isFinite(value) && value > 0 ? value : null;
}

// "00:02:03.500000000" -> 123.5
function clockSeconds(text: string | undefined): number | null {
  const match = /^(\d+):(\d{2}):(\d{2}(?:\.\d+)?)$/.exec(text ?? '');
  if (!match) return null;
  const seconds = Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]);
  return seconds > 0 ? seconds : null;
}
