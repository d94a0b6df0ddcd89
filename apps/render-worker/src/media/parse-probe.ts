import { MediaError } from './media-error';

// What the clean-audio job needs to know about an input, read from ffprobe's JSON.

export interface VideoStreamProbe {
  codecName: string;
  width: number;
  height: number;
  fps: number | null;
  // The same rate as ffmpeg writes it ("30000/1001"), so an encoder gets it without rounding.
  frameRate: string | null;
  nbFrames: number | null;
  // The stream's own length (Matroska keeps it in a DURATION tag); null when the file does not say.
  durationSeconds: number | null;
  // Clockwise degrees a player turns the picture (0, 90, 180 or 270); ffmpeg's decoder applies it.
  rotation: number;
  // ffmpeg's names of the YUV matrix ("bt709", "smpte170m"...), the primaries and the transfer
  // function; null when untagged.
  colorSpace: string | null;
  colorPrimaries: string | null;
  colorTransfer: string | null;
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
  color_space?: string;
  color_primaries?: string;
  color_transfer?: string;
  disposition?: Record<string, number>;
  tags?: Record<string, string>;
  side_data_list?: { side_data_type?: string; rotation?: number }[];
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
    frameRate: [stream.avg_frame_rate, stream.r_frame_rate].find((text) => rational(text) !== null) ?? null,
    nbFrames: positiveNumber(stream.nb_frames),
    durationSeconds: streamSeconds(stream),
    rotation: rotationOf(stream),
    colorSpace: colourName(stream.color_space),
    colorPrimaries: colourName(stream.color_primaries),
    colorTransfer: colourName(stream.color_transfer),
  };
}

// A colour tag as ffmpeg's options name it, to be given back to an encoder: ffprobe says "unknown"
// for none and "reserved" for a value no standard defines, which no encoder option takes.
function colourName(name: string | undefined): string | null {
  if (!name || name === 'unknown' || name === 'unspecified' || name.startsWith('reserved')) return null;
  return /^[a-z0-9_-]{1,32}$/.test(name) ? name : null;
}

// ffprobe gives the display matrix's angle counter-clockwise (-90 for a phone held upright); older
// files carry a clockwise `rotate` tag instead.
function rotationOf(stream: FfprobeStream): number {
  const matrix = stream.side_data_list?.find((data) => typeof data.rotation === 'number')?.rotation;
  const clockwise = matrix !== undefined ? -matrix : Number(stream.tags?.rotate ?? 0);
  const quarterTurns = Math.round((Number.isFinite(clockwise) ? clockwise : 0) / 90);
  return (((quarterTurns % 4) + 4) % 4) * 90;
}

function parseAudio(stream: FfprobeStream): AudioStreamProbe {
  const language = stream.tags?.language;
  return {
    codecName: stream.codec_name ?? 'unknown',
    sampleRate: Number(stream.sample_rate) || 0,
    channels: stream.channels ?? 0,
    durationSeconds: streamSeconds(stream),
    language: language && language !== 'und' ? language : null,
  };
}

// Matroska keeps stream durations only in a DURATION tag.
function streamSeconds(stream: FfprobeStream): number | null {
  return positiveNumber(stream.duration) ?? clockSeconds(stream.tags?.DURATION);
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
