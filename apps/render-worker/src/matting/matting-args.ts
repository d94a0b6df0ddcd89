import type { AudioStreamProbe, VideoStreamProbe } from '../media';
import { ownInput, userFileInput, userImageInput } from '../media/input-fence';
import { MAX_MATTING_PICTURE, type FrameGeometry } from './frame-geometry';
import { yuvMatrixFor } from './model-input';
import type { SegmentTimes } from './segment-plan';

// ffmpeg argument lists for the matting job, built from probe data and options only. Both open the
// user's file, fenced (input-fence.ts) and held to the job's picture limit.

export const QUIET = ['-hide_banner', '-nostdin', '-v', 'error'];

// The stream's own picture size as the probe read it (before turning).
export interface StoredSize {
  width: number;
  height: number;
}

export interface DecodePlan {
  inputPath: string;
  storedSize: StoredSize;
  geometry: FrameGeometry;
  // Decoding stops a second past the limit: metadata can lie about the length.
  maxSeconds: number;
  // The model's input size.
  modelInput: { width: number; height: number };
  // The size of the side frame, or null for none: the whole frame again, as yuv420p, that a crop of
  // the person is cut from (decision 0041) and whose Y plane, at the frame's own size, is the edge
  // refinement's full-size guide.
  side: { width: number; height: number } | null;
  // The side frame is written alone, on stdout: the worker makes the model's frame from it.
  smallFromSide: boolean;
  window?: FrameWindow;
  // A plate pass (plate-pass.ts): one frame in `every`, from the first.
  every?: number;
}

// A segment of a long video (segment-plan.ts): the decoder hands on the input's frames [start, end)
// by number from 0, and the encoder gets those after the first `warmup`, which are matted only so that
// the tracking, the smoothing and the plate have seen what came before (the worker keeps them from the
// encoder: frame-pipeline.ts). Its files have no sound: the join adds the input's (segment-join.ts).
export interface FrameWindow {
  start: number;
  warmup: number;
  end: number;
  // Where the frames' times are known (segment-plan.ts): the input is read from the keyframe before
  // the window instead of from its first frame, and the frames are picked by time, the input's own
  // (-copyts). Without them, every frame is decoded and counted from the first.
  times?: SegmentTimes;
}

// The frames of a window: by time past a seek, or counted by the decoded frame.
function windowFilter(window: FrameWindow | undefined, from: 'start' | 'delivered'): string[] {
  if (!window) return [];
  if (window.times) return [`trim=start=${from === 'start' ? window.times.start : window.times.delivered}:end=${window.times.end}`];
  return [`trim=start_frame=${from === 'start' ? window.start : window.start + window.warmup}:end_frame=${window.end}`];
}

// A plate pass's frames: the first and every `every`-th after it, by decoded frame.
function oneIn(every: number | undefined): string[] {
  if (every === undefined) return [];
  if (!Number.isSafeInteger(every) || every < 1) throw new RangeError(`a pass takes one frame in a whole number of them, not ${every}`);
  return every === 1 ? [] : [`select=not(mod(n\\,${every}))`];
}

// Before the input's -i: the demuxer lands on a keyframe at or before the seek time (the one planned, or
// an earlier one: more is decoded, nothing is missed), every frame from there is decoded (no accurate
// seek dropping any), and the frames keep their own times for the trim.
function seekTo(window: FrameWindow | undefined): string[] {
  const times = window?.times;
  if (!times) return [];
  return [...(times.seek === null ? [] : ['-seek_timestamp', '1', '-ss', String(times.seek), '-noaccurate_seek']), '-copyts'];
}

// The trim ends a window; reading stops there. Otherwise a second past the limit.
function lengthLimit(window: FrameWindow | undefined, maxSeconds: number): string[] {
  return window?.times ? [] : ['-t', String(maxSeconds + 1)];
}

// What the matting itself reads, one entry per decoded frame of the first real video stream,
// upright (the geometry's filters turn it, not ffmpeg's autorotation) and at the geometry's size
// (heldFilters): on stdout the frame scaled to the model's input as planar yuv444p, scaled by
// ffmpeg's vectorised code; with a side frame, on pipe:3, the frame as yuv420p at the side's size. A
// full-size side frame is the picture the encoder encodes (decision 0051); otherwise the encoder
// decodes the picture again (encodeMatteArgs).
export function decodeFramesArgs(plan: DecodePlan): string[] {
  const { geometry, modelInput, side } = plan;
  const limit = lengthLimit(plan.window, plan.maxSeconds);
  const raw = ['-fps_mode', 'passthrough', '-f', 'rawvideo'];
  const upright = `${[...windowFilter(plan.window, 'start'), ...oneIn(plan.every), ...heldFilters(plan.storedSize, geometry)].join(',')},`;
  const toModel = `scale=${modelInput.width}:${modelInput.height}:flags=area,format=yuv444p`;
  const fullSize = side !== null && sameSize(side, geometry);
  const toSide = side && !fullSize ? `scale=${side.width}:${side.height}:flags=area,` : '';
  // yuv420p first: 10-bit, RGB or full-range input then gives the same 8-bit limited-range luma as
  // the model-size copy and the encoder's picture.
  const toSideFrame = `${toSide}format=yuv420p[side]`;
  const outputs = !side
    ? { graph: `[0:V:0]${upright}${toModel}[model]`, pipes: [['[model]', 'pipe:1']] }
    : plan.smallFromSide
      ? { graph: `[0:V:0]${upright}${toSideFrame}`, pipes: [['[side]', 'pipe:1']] }
      : { graph: `[0:V:0]${upright}split=2[frame][full];[frame]${toModel}[model];[full]${toSideFrame}`, pipes: [['[model]', 'pipe:1'], ['[side]', 'pipe:3']] };
  return [
    // Scaled down, in-loop deblocking changes nothing the model can see; a full-size side frame keeps it.
    // Two decoding threads bound how many frames of one output ffmpeg writes before the other's.
    ...QUIET, ...(fullSize ? [] : ['-skip_loop_filter', 'all']), '-threads', '2', ...HELD_INPUT, ...seekTo(plan.window),
    ...userFileInput(plan.inputPath, MAX_MATTING_PICTURE),
    '-filter_complex', outputs.graph,
    ...outputs.pipes.flatMap(([stream, pipe]) => ['-map', stream, ...limit, ...raw, pipe]),
  ];
}

export function sameSize(a: { width: number; height: number }, b: { width: number; height: number }): boolean {
  return a.width === b.width && a.height === b.height;
}

// What a composite puts behind the person: a colour, the picture blurred, or a fetched image's file.
export type CompositeBehind = { color: string } | { blur: number } | { imagePath: string };

// png_sequence: the PNGs go out on stdout (png-sequence-zip.ts), the sound to its own WAV.
export type MatteFiles =
  | { codec: 'vp9'; webmPath: string }
  | { codec: 'h264'; rgbPath: string; mattePath: string }
  | { codec: 'prores'; movPath: string }
  | { codec: 'png_sequence'; audioPath: string }
  // The person on a background: one opaque H.264 MP4 (decision 0086).
  | { codec: 'composite'; mp4Path: string; background: CompositeBehind };

export interface EncodePlan {
  inputPath: string;
  storedSize: StoredSize;
  geometry: FrameGeometry;
  // Where the pictures come from: the worker hands on the decoder's full-size side frames (stdin),
  // or the encoder decodes the input again.
  pictures: 'worker' | 'file';
  maxSeconds: number;
  frameRate: string;
  fps: number;
  audio: AudioStreamProbe | null;
  // The source's colour tags: raw frames carry none, so the encoder is told them.
  colour: ColourTags;
  // The size of the alpha frames: the model's (scaled up here) or the picture's.
  alpha: { width: number; height: number };
  files: MatteFiles;
  // Each output file stops growing past this many bytes (ffmpeg's -fs): the worker's disk is sized
  // for one input and its result (decision 0084).
  maxFileBytes: number;
  // Exports (decision 0094): the alpha frames are also written, losslessly, to this Matroska file for
  // a later export; or, for an export, they are read from such a file (with pictures 'file') instead
  // of from the worker.
  keepMatteAt?: string;
  matteFrom?: string;
  window?: FrameWindow;
}

// The pictures, upright like the matting's decode, with one 8-bit alpha frame per picture (grey),
// become one VP9 WebM with alpha, an H.264 picture and an H.264 matte (luma = alpha), or one ProRes
// 4444 QuickTime with alpha. The pictures are the decoder's, handed on by the worker on stdin when it
// reads them anyway, else the input decoded again. Both streams are renumbered n / frame rate, so the
// n-th alpha frame always meets the n-th picture, whatever the input's own timestamps. The sound comes
// from the input file, opened once.
export function encodeMatteArgs(plan: EncodePlan): string[] {
  const { geometry, alpha, files } = plan;
  // In a time base of one frame, timestamps are exact; setpts=N/rate/TB in the input's time base
  // (1/1000 for Matroska) rounds some down onto the previous alpha frame.
  const renumber = `settb=${frameDuration(plan.frameRate)},setpts=N`;
  const fromWorker = plan.pictures === 'worker';
  const file = [...HELD_INPUT, ...seekTo(plan.window), ...lengthLimit(plan.window, plan.maxSeconds), ...userFileInput(plan.inputPath, MAX_MATTING_PICTURE)];
  // The alpha frames come on stdin unless the pictures do; then on pipe:3. An export's come from the
  // matte its source job kept.
  if (plan.matteFrom && fromWorker) throw new Error('an export reads its pictures from the file');
  if (plan.window && (plan.matteFrom || plan.audio)) throw new Error('a segment is matted, and silent');
  const alphaInput = plan.matteFrom ? ownInput(plan.matteFrom) : rawFrames('gray', alpha, plan.frameRate, fromWorker ? 'pipe:3' : 'pipe:0');
  const inputs = [
    ...(fromWorker ? rawFrames('yuv420p', geometry, plan.frameRate, 'pipe:0') : file),
    ...alphaInput,
    ...(fromWorker && plan.audio ? ['-vn', ...file] : []),
  ];
  // A background image comes last, as one picture (compositeGraph repeats it).
  const image = files.codec === 'composite' && 'imagePath' in files.background ? files.background.imagePath : null;
  const imageInput = image === null ? null : inputs.filter((arg) => arg === '-i').length;
  if (image !== null) inputs.push(...userImageInput(image));
  const picture = fromWorker
    ? `[0:v]${renumber}[picture]`
    : `[0:V:0]${[...windowFilter(plan.window, 'delivered'), ...heldFilters(plan.storedSize, geometry), renumber, 'format=yuv420p'].join(',')}[picture]`;
  // A kept matte is at the size its job matted at, which this plan does not know: scaled whatever it is.
  const matte = `[1:v]${sameSize(alpha, geometry) && !plan.matteFrom ? '' : `scale=${geometry.width}:${geometry.height}:flags=bilinear,`}${renumber}[alpha]`;
  return [...encodeOutputs(plan, inputs, picture, matte, imageInput), ...keptMatte(plan)];
}

// The alpha frames as they came, one for one, in lossless FFV1: what an export re-encodes from.
function keptMatte(plan: EncodePlan): string[] {
  return plan.keepMatteAt ? ['-map', '1:v', ...ONE_FOR_ONE, '-fs', String(keptMatteLimit(plan.maxFileBytes)), '-c:v', 'ffv1', '-f', 'matroska', '-y', plan.keepMatteAt] : [];
}

// A kept matte may take a quarter of a result's limit (1 GiB of the default 4): the worker's disk holds
// one input, its result and this (decision 0094). A matte that reaches it is not kept.
export function keptMatteLimit(maxFileBytes: number): number {
  return Math.floor(maxFileBytes / 4);
}

function encodeOutputs(plan: EncodePlan, inputs: string[], picture: string, matte: string, imageInput: number | null): string[] {
  const { files } = plan;
  const fromWorker = plan.pictures === 'worker';
  const sound = plan.audio ? ['-map', `${fromWorker ? 2 : 0}:a:0`] : [];
  if (files.codec === 'composite') {
    return [
      ...QUIET, ...inputs,
      '-filter_complex', `${picture};${matte};${compositeGraph(plan, files.background, imageInput)}`,
      '-map', '[out]', ...sound, ...ONE_FOR_ONE, ...sizeLimit(plan),
      ...h264Args(plan, H264_BITS_PER_PIXEL, 'veryfast'), ...gop(plan), ...colour(plan),
      ...(plan.audio ? audioArgs(plan.audio, 'mp4') : []),
      '-movflags', '+faststart', '-f', 'mp4', '-y', files.mp4Path,
    ];
  }
  if (files.codec === 'png_sequence') {
    return [
      ...QUIET, ...inputs,
      // Premultiplied and back: where the matte is 0 the colour is 0 too. The removed background is
      // not left in the file, and empty pixels compress to nothing.
      '-filter_complex', `${picture};${matte};[picture][alpha]alphamerge=shortest=1,premultiply=inplace=1,unpremultiply=inplace=1,format=rgba[out]`,
      '-map', '[out]', ...ONE_FOR_ONE, '-c:v', 'png', '-f', 'image2pipe', 'pipe:1',
      ...(plan.audio ? [...sound, ...sizeLimit(plan), ...editorAudio(plan.audio, 'wav'), '-rf64', 'auto', '-f', 'wav', '-y', files.audioPath] : []),
    ];
  }
  if (files.codec !== 'h264') {
    return [
      ...QUIET, ...inputs,
      // shortest: alphamerge otherwise repeats the last picture once more at the end.
      '-filter_complex', `${picture};${matte};[picture][alpha]alphamerge=shortest=1[out]`,
      '-map', '[out]', ...sound, ...(files.codec === 'vp9' ? vp9Output(plan, files.webmPath) : proresOutput(plan, files.movPath)),
    ];
  }
  return [
    ...QUIET, ...inputs,
    '-filter_complex', `${picture};${matte};[alpha]format=yuv420p[matte]`,
    '-map', '[picture]', ...sound, ...h264Outputs(plan, files, '[matte]'),
  ];
}

// [picture] and [alpha] into [out], the person on `background` (decision 0086). Each edge pixel's
// colour is mostly the old background where the alpha is low: it is taken instead from the person
// around it (the picture premultiplied by its alpha, blurred, divided by the blurred alpha), weighed
// by its alpha, so no fringe of the old background shows on the new one. A colour or an image is RGB,
// turned to YUV by the matrix players read the picture with (ffmpeg's colour source would use BT.601).
// An image (input `imageInput`) is scaled to cover the picture, cut to it at the centre, and repeated
// for every frame (decision 0089).
function compositeGraph(plan: EncodePlan, background: CompositeBehind, imageInput: number | null): string {
  const { width, height } = plan.geometry;
  const longSide = Math.max(width, height);
  const edgeSigma = Math.max(1, longSide / 200).toFixed(1);
  const blurred = 'blur' in background;
  const person = [
    '[alpha]split=2[merge][keep]',
    blurred ? '[picture]split=2[front][back]' : '[picture]null[front]',
    '[front][merge]alphamerge=shortest=1,format=yuva444p,split=2[cut][around]',
    `[around]premultiply=inplace=1,gblur=sigma=${edgeSigma}:planes=15,unpremultiply=inplace=1,format=yuv444p[nearby]`,
    '[nearby][cut]overlay=format=yuv444:shortest=1[colours]',
    '[colours][keep]alphamerge=shortest=1[person]',
  ];
  const matrix = yuvMatrixFor(plan.colour.colorSpace, height);
  const toYuv = `scale=out_color_matrix=${matrix}:out_range=tv,format=yuv444p`;
  const behind =
    'color' in background
      ? `color=c=0x${background.color.slice(1)}:s=${width}x${height}:r=${plan.frameRate},format=rgb24,${toYuv}[behind]`
      : 'blur' in background
        ? `[back]gblur=sigma=${Math.max(1, (background.blur * longSide) / 40).toFixed(1)}[behind]`
        : `[${imageInput}:v]loop=loop=-1:size=1,settb=${frameDuration(plan.frameRate)},setpts=N,scale=${width}:${height}:force_original_aspect_ratio=increase,crop=${width}:${height},setsar=1,format=rgb24,${toYuv}[behind]`;
  return [...person, behind, '[behind][person]overlay=format=yuv420:shortest=1,format=yuv420p[out]'].join(';');
}

// The encoders and files of a VP9 WebM with alpha, for the stream mapped before them (and the sound).
export function vp9Output(plan: EncodePlan, webmPath: string): string[] {
  return [
    ...ONE_FOR_ONE, ...sizeLimit(plan),
    '-c:v', 'libvpx-vp9', '-pix_fmt', 'yuva420p',
    // The realtime preset is what makes VP9 with alpha fast enough;
    // constrained quality with a cap keeps the size sensible.
    '-deadline', 'realtime', '-cpu-used', '8', '-row-mt', '1',
    '-crf', '30', '-b:v', bitrate(plan, VP9_BITS_PER_PIXEL), ...gop(plan), ...colour(plan),
    ...(plan.audio ? audioArgs(plan.audio, 'webm') : []),
    '-f', 'webm', '-y', webmPath,
  ];
}

// The encoder and file of a ProRes 4444 QuickTime with alpha (decision 0084), for the stream mapped
// before it (and the sound): what editing suites import. A fixed quantiser of 4 keeps the picture
// within 0.01 % of the frame it was given (PSNR about 61 dB) at five times the speed of prores_ks's rate
// control, which searches quantisers to spend the profile's whole bitrate.
export function proresOutput(plan: EncodePlan, movPath: string): string[] {
  return [
    ...ONE_FOR_ONE, ...sizeLimit(plan),
    '-c:v', 'prores_ks', '-profile:v', '4444', '-pix_fmt', 'yuva444p10le', '-q:v', '4', '-vendor', 'apl0', ...colour(plan),
    ...(plan.audio ? audioArgs(plan.audio, 'mov') : []),
    '-f', 'mov', '-y', movPath,
  ];
}

// The encoders and files of an H.264 picture (the stream mapped before them, and the sound) and of
// its H.264 matte (`matte`, a yuv420p stream).
export function h264Outputs(plan: EncodePlan, files: Extract<MatteFiles, { codec: 'h264' }>, matte: string): string[] {
  return [
    ...ONE_FOR_ONE, ...sizeLimit(plan),
    ...h264Args(plan, H264_BITS_PER_PIXEL, 'veryfast'), ...gop(plan), ...colour(plan),
    ...(plan.audio ? audioArgs(plan.audio, 'mp4') : []),
    '-movflags', '+faststart', '-f', 'mp4', '-y', files.rgbPath,
    '-map', matte, ...ONE_FOR_ONE, ...sizeLimit(plan),
    // superfast: a matte's flat planes and sharp edges lose nothing to the cheaper search and cost a
    // third less CPU than veryfast (decision 0042).
    ...h264Args(plan, H264_BITS_PER_PIXEL / 2, 'superfast'), ...gop(plan),
    '-movflags', '+faststart', '-f', 'mp4', '-y', files.mattePath,
  ];
}

// The files of a long video's segments (decision 0100) made one, each by packet copy, with the
// input's sound as its whole run would have it; a PNG sequence's sound goes to its WAV.
export interface JoinPlan {
  inputPath: string;
  maxSeconds: number;
  audio: AudioStreamProbe | null;
  // The ffconcat list of the segments' files, with each one's exact duration.
  listPath: string;
  container: 'webm' | 'mp4' | 'mov' | 'matroska';
  // The H.264 matte and the kept matte are silent.
  withSound: boolean;
  maxFileBytes: number;
  outputPath: string;
}

export function joinSegmentsArgs(plan: JoinPlan): string[] {
  const { container } = plan;
  const sound = plan.withSound && plan.audio && container !== 'matroska' ? { audio: plan.audio, container } : null;
  return [
    // The list names our own segment files by absolute path (never a user's), hence -safe 0.
    ...QUIET, '-f', 'concat', '-safe', '0', ...ownInput(plan.listPath),
    ...(sound ? ['-vn', '-t', String(plan.maxSeconds + 1), ...userFileInput(plan.inputPath, MAX_MATTING_PICTURE)] : []),
    '-map', '0:v:0', ...(sound ? ['-map', '1:a:0'] : []), '-c:v', 'copy', ...ONE_FOR_ONE, '-fs', String(plan.maxFileBytes),
    ...(sound ? audioArgs(sound.audio, sound.container) : []),
    ...(plan.container === 'mp4' ? ['-movflags', '+faststart'] : []),
    '-f', plan.container, '-y', plan.outputPath,
  ];
}

// A PNG sequence's sound, as its whole run writes it beside the pictures.
export function sequenceSoundArgs(plan: Pick<JoinPlan, 'inputPath' | 'maxSeconds' | 'maxFileBytes'> & { audio: AudioStreamProbe; wavPath: string }): string[] {
  return [
    ...QUIET, '-vn', '-t', String(plan.maxSeconds + 1), ...userFileInput(plan.inputPath, MAX_MATTING_PICTURE),
    '-map', '0:a:0', '-fs', String(plan.maxFileBytes), ...editorAudio(plan.audio, 'wav'), '-rf64', 'auto', '-f', 'wav', '-y', plan.wavPath,
  ];
}

// Frames we write ourselves: their format is known, only the protocol is fenced.
function rawFrames(pixelFormat: 'yuv420p' | 'gray', size: { width: number; height: number }, frameRate: string, pipe: string): string[] {
  return ['-f', 'rawvideo', '-pix_fmt', pixelFormat, '-s', `${size.width}x${size.height}`, '-framerate', frameRate, ...ownInput(pipe)];
}

// MP4 would otherwise resample the picture to its nominal rate (r_frame_rate), dropping or
// repeating frames the matte keeps: every frame goes out once, at the timestamp it was given.
const ONE_FOR_ONE = ['-fps_mode', 'passthrough'];

function sizeLimit(plan: EncodePlan): string[] {
  return ['-fs', String(plan.maxFileBytes)];
}

// A keyframe every two seconds or so keeps seeking quick in players and editors.
function gop(plan: EncodePlan): string[] {
  return ['-g', String(Math.max(1, Math.round(plan.fps * 2)))];
}

export type ColourTags = Pick<VideoStreamProbe, 'colorSpace' | 'colorPrimaries' | 'colorTransfer'>;

// The picture is limited range whatever the source's (the decoder's format=yuv420p), and keeps the
// source's matrix, primaries and transfer function where it states them.
function colour({ colour: tags }: EncodePlan): string[] {
  const tag = (flag: string, value: string | null) => (value ? [flag, value] : []);
  return ['-color_range', 'tv', ...tag('-colorspace', tags.colorSpace), ...tag('-color_primaries', tags.colorPrimaries), ...tag('-color_trc', tags.colorTransfer)];
}

// A stream may change size midway (a call recording, or a header that understates the size within
// the decoders' -max_pixels). Rebuilding the filters for it would restart setpts=N and break the
// pairing of pictures and alpha frames, and change the size of the frames the worker cuts its pipes
// into, so they are kept (-reinit_filter 0), and a first scale, which follows each frame's size,
// brings every picture back to the probed size before the geometry's filters: they, the guide and
// the alpha always see the size they were planned for. At the same size scale hands frames through
// untouched.
export const HELD_INPUT = ['-noautorotate', '-reinit_filter', '0'];

export function heldFilters(stored: StoredSize, geometry: FrameGeometry): string[] {
  return [`scale=${stored.width}:${stored.height}`, ...geometry.filters];
}

// "30000/1001" -> "1001/30000", "25" -> "1/25".
function frameDuration(rate: string): string {
  const [num, den = '1'] = rate.split('/');
  return `${den}/${num}`;
}

// Caps per pixel and frame: about 1 Mbit/s for 640x480 at 30 fps, 6 Mbit/s for 1080p.
const VP9_BITS_PER_PIXEL = 0.1;
const H264_BITS_PER_PIXEL = 0.12;

function bitrate(plan: EncodePlan, bitsPerPixel: number): string {
  const bits = plan.geometry.width * plan.geometry.height * Math.min(plan.fps, 60) * bitsPerPixel;
  return `${Math.max(100, Math.round(bits / 1000))}k`;
}

function h264Args(plan: EncodePlan, bitsPerPixel: number, preset: 'veryfast' | 'superfast'): string[] {
  const cap = bitrate(plan, bitsPerPixel);
  return ['-c:v', 'libx264', '-preset', preset, '-crf', '20', '-maxrate', cap, '-bufsize', cap, '-pix_fmt', 'yuv420p'];
}

// The source's sound, kept: copied when the container takes it as it is, else re-encoded. For
// editors (a QuickTime, a PNG sequence's WAV): PCM, or AAC in a QuickTime, as they come, anything
// else as 24-bit PCM (no source loses precision). Up to 8 channels (5.1, 7.1) every encoder takes, or mixes down by their layout; more
// are a recorder's tracks, usually without a layout to mix by: the first two are kept, the main pair.
// The worker refuses more than MAX_KEPT_CHANNELS before anything runs (remove-background.ts).
const EDITOR_PCM = new Set(['pcm_s16le', 'pcm_s16be', 'pcm_s24le', 'pcm_s24be']);
const MIXED_CHANNELS = 8;
const FIRST_TWO_CHANNELS = ['-af', 'pan=stereo|c0=c0|c1=c1'];

// ffmpeg's resampler and pan filter take at most 64 channels.
export const MAX_KEPT_CHANNELS = 64;

function audioArgs(audio: AudioStreamProbe, container: 'webm' | 'mp4' | 'mov'): string[] {
  const tracks = audio.channels > MIXED_CHANNELS;
  if (container === 'mov') {
    if (!tracks && audio.codecName === 'aac') return ['-c:a', 'copy'];
    return editorAudio(audio, 'mov');
  }
  if (container === 'webm') {
    if (audio.codecName === 'opus') return ['-c:a', 'copy'];
    // libopus takes at most two channels without a mapping family.
    return ['-c:a', 'libopus', '-b:a', '128k', ...(tracks ? FIRST_TWO_CHANNELS : audio.channels > 2 ? ['-ac', '2'] : [])];
  }
  if (audio.codecName === 'aac' && !tracks) return ['-c:a', 'copy'];
  return ['-c:a', 'aac', '-b:a', '160k', ...(tracks ? FIRST_TWO_CHANNELS : [])];
}

// PCM for an editor's timeline: as it comes where the container takes it (WAV is little-endian only),
// else 24-bit.
function editorAudio(audio: AudioStreamProbe, container: 'mov' | 'wav'): string[] {
  const tracks = audio.channels > MIXED_CHANNELS;
  const taken = container === 'mov' ? EDITOR_PCM.has(audio.codecName) : audio.codecName === 'pcm_s16le' || audio.codecName === 'pcm_s24le';
  if (!tracks && taken) return ['-c:a', 'copy'];
  return ['-c:a', 'pcm_s24le', ...(tracks ? FIRST_TWO_CHANNELS : [])];
}
