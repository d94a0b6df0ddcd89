import type { AudioStreamProbe } from '../media';
import type { FrameGeometry } from './frame-geometry';

// ffmpeg argument lists for the matting job, built from probe data and options only.

const QUIET = ['-hide_banner', '-nostdin', '-v', 'error'];

export interface DecodePlan {
  inputPath: string;
  geometry: FrameGeometry;
  // Decoding stops a second past the limit: metadata can lie about the length.
  maxSeconds: number;
  // The model's input size: a second output (pipe:3) carries every frame scaled to it, as planar
  // yuv444p, so the scaling runs in ffmpeg's vectorised code rather than in JavaScript.
  modelInput?: { width: number; height: number };
}

// The first real video stream as raw yuv420p frames on stdout, one per decoded frame, upright and
// at the planned size (the geometry's filters turn it, not ffmpeg's own autorotation). Timestamps
// are not kept: the encoder numbers the frames at the input's rate.
export function decodeFramesArgs(plan: DecodePlan): string[] {
  const { geometry, modelInput } = plan;
  const limit = ['-t', String(plan.maxSeconds + 1)];
  const frames = ['-fps_mode', 'passthrough', '-pix_fmt', 'yuv420p', '-f', 'rawvideo', 'pipe:1'];
  if (!modelInput) {
    return [
      ...QUIET, '-noautorotate', '-i', plan.inputPath,
      '-map', '0:V:0', ...limit,
      ...(geometry.filters.length > 0 ? ['-vf', geometry.filters.join(',')] : []),
      ...frames,
    ];
  }
  const graph = `[0:V:0]${[...geometry.filters, 'split=2'].join(',')}[frame][small];` +
    `[small]scale=${modelInput.width}:${modelInput.height}:flags=area,format=yuv444p[model]`;
  return [
    ...QUIET, '-noautorotate', '-i', plan.inputPath,
    '-filter_complex', graph,
    '-map', '[frame]', ...limit, ...frames,
    '-map', '[model]', ...limit, '-fps_mode', 'passthrough', '-f', 'rawvideo', 'pipe:3',
  ];
}

export type MatteFiles = { codec: 'vp9'; webmPath: string } | { codec: 'h264'; rgbPath: string; mattePath: string };

export interface EncodePlan {
  // Read again for its first audio stream only.
  inputPath: string;
  geometry: FrameGeometry;
  frameRate: string;
  fps: number;
  audio: AudioStreamProbe | null;
  colorSpace: string | null;
  files: MatteFiles;
}

// Raw yuva420p frames on stdin (the picture as decoded, plus the matte as its alpha plane) become
// one VP9 WebM with alpha, or an H.264 picture and an H.264 matte (luma = alpha) numbered alike.
export function encodeMatteArgs(plan: EncodePlan): string[] {
  const { geometry, files } = plan;
  const frames = ['-f', 'rawvideo', '-pix_fmt', 'yuva420p', '-s', `${geometry.width}x${geometry.height}`, '-framerate', plan.frameRate, '-i', 'pipe:0'];
  const audioInput = plan.audio ? ['-i', plan.inputPath] : [];
  // A keyframe every two seconds or so keeps seeking quick in players and editors.
  const gop = ['-g', String(Math.max(1, Math.round(plan.fps * 2)))];
  const colour = plan.colorSpace ? ['-colorspace', plan.colorSpace] : [];
  if (files.codec === 'vp9') {
    return [
      ...QUIET, ...frames, ...audioInput,
      '-map', '0:v', ...(plan.audio ? ['-map', '1:a:0'] : []),
      '-c:v', 'libvpx-vp9', '-pix_fmt', 'yuva420p',
      // The realtime preset is what makes VP9 with alpha fast enough (shared/notes/facts.md);
      // constrained quality with a cap keeps the size sensible.
      '-deadline', 'realtime', '-cpu-used', '8', '-row-mt', '1',
      '-crf', '30', '-b:v', bitrate(plan, VP9_BITS_PER_PIXEL), ...gop, ...colour,
      ...(plan.audio ? audioArgs(plan.audio, 'webm') : []),
      '-f', 'webm', '-y', files.webmPath,
    ];
  }
  return [
    ...QUIET, ...frames, ...audioInput,
    '-filter_complex', '[0:v]split=2[picture][alpha];[picture]format=yuv420p[rgb];[alpha]alphaextract,format=yuv420p[matte]',
    '-map', '[rgb]', ...(plan.audio ? ['-map', '1:a:0'] : []),
    ...h264Args(plan, H264_BITS_PER_PIXEL), ...gop, ...colour,
    ...(plan.audio ? audioArgs(plan.audio, 'mp4') : []),
    '-movflags', '+faststart', '-f', 'mp4', '-y', files.rgbPath,
    '-map', '[matte]',
    ...h264Args(plan, H264_BITS_PER_PIXEL / 2), ...gop,
    '-movflags', '+faststart', '-f', 'mp4', '-y', files.mattePath,
  ];
}

// Caps per pixel and frame: about 1 Mbit/s for 640x480 at 30 fps, 6 Mbit/s for 1080p.
const VP9_BITS_PER_PIXEL = 0.1;
const H264_BITS_PER_PIXEL = 0.12;

function bitrate(plan: EncodePlan, bitsPerPixel: number): string {
  const bits = plan.geometry.width * plan.geometry.height * Math.min(plan.fps, 60) * bitsPerPixel;
  return `${Math.max(100, Math.round(bits / 1000))}k`;
}

function h264Args(plan: EncodePlan, bitsPerPixel: number): string[] {
  const cap = bitrate(plan, bitsPerPixel);
  return ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-maxrate', cap, '-bufsize', cap, '-pix_fmt', 'yuv420p'];
}

// The source's sound, kept: copied when the container takes it as it is, else re-encoded.
function audioArgs(audio: AudioStreamProbe, container: 'webm' | 'mp4'): string[] {
  if (container === 'webm') {
    if (audio.codecName === 'opus') return ['-c:a', 'copy'];
    // libopus takes at most two channels without a mapping family.
    return ['-c:a', 'libopus', '-b:a', '128k', ...(audio.channels > 2 ? ['-ac', '2'] : [])];
  }
  return audio.codecName === 'aac' ? ['-c:a', 'copy'] : ['-c:a', 'aac', '-b:a', '160k'];
}
