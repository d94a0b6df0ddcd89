import type { AudioStreamProbe } from '../media';
import { decodeFramesArgs, encodeMatteArgs, joinSegmentsArgs, sequenceSoundArgs, type DecodePlan, type EncodePlan, type JoinPlan } from './matting-args';

const QUIET = ['-hide_banner', '-nostdin', '-v', 'error'];
const VGA = { width: 640, height: 480, filters: [] };
const RAW = ['-fps_mode', 'passthrough', '-f', 'rawvideo'];
// The fence of the user's file (input-fence.ts) with the matting limit: 4096x2304, padded to
// 4160x2368 for the decoder's alignment.
const FENCED = ['-protocol_whitelist', 'file', '-format_whitelist', 'mov,matroska,avi,flv,mpegts,mpeg,asf,ogg,mxf', '-max_pixels', '9850880'];

function audio(codecName: string, channels = 2): AudioStreamProbe {
  return { codecName, sampleRate: 48000, channels, durationSeconds: 2, language: null };
}

function decodePlan(overrides: Partial<DecodePlan> = {}): DecodePlan {
  return { inputPath: '/w/in', storedSize: { width: 640, height: 480 }, geometry: VGA, maxSeconds: 60, modelInput: { width: 256, height: 144 }, side: null, smallFromSide: false, ...overrides };
}

function plan(overrides: Partial<EncodePlan> = {}): EncodePlan {
  return {
    inputPath: '/w/in',
    storedSize: { width: 640, height: 480 },
    geometry: VGA,
    pictures: 'file',
    maxSeconds: 60,
    frameRate: '30/1',
    fps: 30,
    audio: audio('opus'),
    colour: UNTAGGED,
    alpha: { width: 256, height: 144 },
    files: { codec: 'vp9', webmPath: '/w/transparent.webm' },
    maxFileBytes: 1_000_000,
    ...overrides,
  };
}

const UNTAGGED = { colorSpace: null, colorPrimaries: null, colorTransfer: null };
const BT709 = { colorSpace: 'bt709', colorPrimaries: 'bt709', colorTransfer: 'bt709' };

const h264Files = { codec: 'h264', rgbPath: '/w/rgb.mp4', mattePath: '/w/matte.mp4' } as const;

// The value after each occurrence of `flag`, in order.
function valuesOf(args: string[], flag: string): string[] {
  return args.flatMap((arg, i) => (arg === flag ? [args[i + 1]] : []));
}

describe('decodeFramesArgs', () => {
  it("writes only the frame scaled to the model's input, as yuv444p on stdout, skipping deblocking, a second past the limit", () => {
    expect(decodeFramesArgs(decodePlan())).toEqual([
      ...QUIET,
      '-skip_loop_filter', 'all',
      '-threads', '2',
      '-noautorotate', '-reinit_filter', '0',
      ...FENCED, '-i', '/w/in',
      '-filter_complex', '[0:V:0]scale=640:480,scale=256:144:flags=area,format=yuv444p[model]',
      '-map', '[model]', '-t', '61', ...RAW, 'pipe:1',
    ]);
  });

  it('with a full-size side frame also writes the frame as yuv420p on pipe:3 from the same decode, deblocked', () => {
    expect(decodeFramesArgs(decodePlan({ side: { width: 640, height: 480 } }))).toEqual([
      ...QUIET,
      '-threads', '2',
      '-noautorotate', '-reinit_filter', '0',
      ...FENCED, '-i', '/w/in',
      '-filter_complex', '[0:V:0]scale=640:480,split=2[frame][full];[frame]scale=256:144:flags=area,format=yuv444p[model];[full]format=yuv420p[side]',
      '-map', '[model]', '-t', '61', ...RAW, 'pipe:1',
      '-map', '[side]', '-t', '61', ...RAW, 'pipe:3',
    ]);
  });

  it('scales a smaller side frame (the crop source when tracking) with area averaging, skipping deblocking', () => {
    const args = decodeFramesArgs(decodePlan({ side: { width: 384, height: 288 } }));
    expect(args).toContain('-skip_loop_filter');
    expect(valuesOf(args, '-filter_complex')).toEqual([
      '[0:V:0]scale=640:480,split=2[frame][full];[frame]scale=256:144:flags=area,format=yuv444p[model];[full]scale=384:288:flags=area,format=yuv420p[side]',
    ]);
    expect(args.slice(-2)).toEqual(['rawvideo', 'pipe:3']);
  });

  it("writes the side frame alone on stdout when the worker makes the model's frame from it", () => {
    expect(decodeFramesArgs(decodePlan({ side: { width: 512, height: 288 }, smallFromSide: true }))).toEqual([
      ...QUIET,
      '-skip_loop_filter', 'all',
      '-threads', '2',
      '-noautorotate', '-reinit_filter', '0',
      ...FENCED, '-i', '/w/in',
      '-filter_complex', '[0:V:0]scale=640:480,scale=512:288:flags=area,format=yuv420p[side]',
      '-map', '[side]', '-t', '61', ...RAW, 'pipe:1',
    ]);
  });

  it("turns the picture upright with the geometry's filters before it is scaled for the model", () => {
    const geometry = { width: 2160, height: 3840, filters: ['transpose=clock', 'scale=2160:3840:flags=area'] };
    const args = decodeFramesArgs(decodePlan({ storedSize: { width: 4096, height: 2304 }, geometry, modelInput: { width: 256, height: 256 } }));
    expect(valuesOf(args, '-filter_complex')).toEqual(['[0:V:0]scale=4096:2304,transpose=clock,scale=2160:3840:flags=area,scale=256:256:flags=area,format=yuv444p[model]']);
  });

  it('holds every frame to the probed size before the geometry, and keeps the filters when a stream changes size midway', () => {
    const storedSize = { width: 4096, height: 2304 };
    const scaled = { width: 3840, height: 2160, filters: ['scale=3840:2160:flags=area'] };
    const decode = decodeFramesArgs(decodePlan({ storedSize, geometry: scaled, side: { width: 3840, height: 2160 } }));
    expect(valuesOf(decode, '-filter_complex')[0]).toMatch(/^\[0:V:0\]scale=4096:2304,scale=3840:2160:flags=area,split=2\[frame\]\[full\];/);
    const encode = encodeMatteArgs(plan({ storedSize, geometry: scaled }));
    expect(valuesOf(encode, '-filter_complex')[0]).toMatch(/^\[0:V:0\]scale=4096:2304,scale=3840:2160:flags=area,settb=/);
    for (const args of [decode, encode]) expect(args.indexOf('-reinit_filter')).toBeLessThan(args.indexOf('/w/in'));
    expect(valuesOf(decode, '-reinit_filter')).toEqual(['0']);
    expect(valuesOf(encode, '-reinit_filter')).toEqual(['0']);
  });

  it("turns the picture upright with the geometry's filters before it is split into the model's frame and the side frame", () => {
    const geometry = { width: 320, height: 240, filters: ['crop=320:240:0:0'] };
    const args = decodeFramesArgs(decodePlan({ storedSize: { width: 321, height: 241 }, geometry, side: { width: 320, height: 240 } }));
    expect(valuesOf(args, '-filter_complex')).toEqual([
      '[0:V:0]scale=321:241,crop=320:240:0:0,split=2[frame][full];[frame]scale=256:144:flags=area,format=yuv444p[model];[full]format=yuv420p[side]',
    ]);
  });
});

describe('encodeMatteArgs', () => {
  const input = ['-noautorotate', '-reinit_filter', '0', '-t', '61', ...FENCED, '-i', '/w/in'];
  const alphaFrames = (size: string, rate = '30/1') => ['-f', 'rawvideo', '-pix_fmt', 'gray', '-s', size, '-framerate', rate, '-protocol_whitelist', 'pipe', '-i', 'pipe:0'];
  const vp9 = ['-c:v', 'libvpx-vp9', '-pix_fmt', 'yuva420p', '-deadline', 'realtime', '-cpu-used', '8', '-row-mt', '1', '-crf', '30', '-b:v', '922k', '-g', '60', '-color_range', 'tv'];

  it('decodes the input again and merges it with the model-size alpha, scaled up, into VP9 with alpha in WebM, copying Opus sound', () => {
    expect(encodeMatteArgs(plan())).toEqual([
      ...QUIET,
      ...input,
      ...alphaFrames('256x144'),
      '-filter_complex',
      '[0:V:0]scale=640:480,settb=1/30,setpts=N,format=yuv420p[picture];[1:v]scale=640:480:flags=bilinear,settb=1/30,setpts=N[alpha];[picture][alpha]alphamerge=shortest=1[out]',
      '-map', '[out]', '-map', '0:a:0', '-fps_mode', 'passthrough', '-fs', '1000000',
      ...vp9,
      '-c:a', 'copy',
      '-f', 'webm', '-y', '/w/transparent.webm',
    ]);
  });

  it("takes the worker's pictures on stdin when it hands them on, and the file's sound from a third input that decodes no picture", () => {
    const raw = (format: string, size: string, pipe: string) => ['-f', 'rawvideo', '-pix_fmt', format, '-s', size, '-framerate', '30/1', '-protocol_whitelist', 'pipe', '-i', pipe];
    expect(encodeMatteArgs(plan({ pictures: 'worker', alpha: { width: 640, height: 480 } }))).toEqual([
      ...QUIET,
      ...raw('yuv420p', '640x480', 'pipe:0'),
      ...raw('gray', '640x480', 'pipe:3'),
      '-vn', ...input,
      '-filter_complex', '[0:v]settb=1/30,setpts=N[picture];[1:v]settb=1/30,setpts=N[alpha];[picture][alpha]alphamerge=shortest=1[out]',
      '-map', '[out]', '-map', '2:a:0', '-fps_mode', 'passthrough', '-fs', '1000000',
      ...vp9,
      '-c:a', 'copy',
      '-f', 'webm', '-y', '/w/transparent.webm',
    ]);
  });

  it("opens no file when the worker hands on the pictures and the input has no sound", () => {
    const args = encodeMatteArgs(plan({ pictures: 'worker', audio: null, files: h264Files }));
    expect(valuesOf(args, '-i')).toEqual(['pipe:0', 'pipe:3']);
    expect(valuesOf(args, '-map')).toEqual(['[picture]', '[matte]']);
  });

  it('merges a frame-size alpha as it is, without scaling it', () => {
    const args = encodeMatteArgs(plan({ alpha: { width: 640, height: 480 } }));
    expect(valuesOf(args, '-s')).toEqual(['640x480']);
    expect(valuesOf(args, '-filter_complex')).toEqual([
      '[0:V:0]scale=640:480,settb=1/30,setpts=N,format=yuv420p[picture];[1:v]settb=1/30,setpts=N[alpha];[picture][alpha]alphamerge=shortest=1[out]',
    ]);
  });

  it("turns the picture upright with the geometry's filters, as the decoder did, before renumbering it", () => {
    const geometry = { width: 480, height: 640, filters: ['transpose=clock'] };
    const args = encodeMatteArgs(plan({ geometry }));
    expect(valuesOf(args, '-filter_complex')).toEqual([
      '[0:V:0]scale=640:480,transpose=clock,settb=1/30,setpts=N,format=yuv420p[picture];[1:v]scale=480:640:flags=bilinear,settb=1/30,setpts=N[alpha];[picture][alpha]alphamerge=shortest=1[out]',
    ]);
  });

  it('numbers the picture and the alpha frames alike at a rational rate, so the n-th alpha meets the n-th picture', () => {
    const args = encodeMatteArgs(plan({ fps: 30000 / 1001, frameRate: '30000/1001' }));
    expect(valuesOf(args, '-framerate')).toEqual(['30000/1001']);
    const graph = valuesOf(args, '-filter_complex')[0];
    expect(graph.match(/settb=[^,;[]+/g)).toEqual(['settb=1001/30000', 'settb=1001/30000']);
  });

  it('re-encodes stereo AAC sound to Opus for WebM', () => {
    const args = encodeMatteArgs(plan({ audio: audio('aac', 2) }));
    expect(args.slice(args.indexOf('-c:a'), args.indexOf('-f', args.indexOf('-c:a')))).toEqual(['-c:a', 'libopus', '-b:a', '128k']);
  });

  it('downmixes sound of more than two channels to stereo for Opus', () => {
    const args = encodeMatteArgs(plan({ audio: audio('aac', 6) }));
    expect(args.slice(args.indexOf('-c:a'), args.indexOf('-f', args.indexOf('-c:a')))).toEqual(['-c:a', 'libopus', '-b:a', '128k', '-ac', '2']);
  });

  it.each([
    ['vp9', ['-c:a', 'libopus', '-b:a', '128k', '-af', 'pan=stereo|c0=c0|c1=c1']],
    ['h264', ['-c:a', 'aac', '-b:a', '160k', '-af', 'pan=stereo|c0=c0|c1=c1']],
  ] as const)('keeps the first two of more than 8 channels, a recorder\'s tracks with no layout to mix by (%s)', (codec, expected) => {
    const files = codec === 'vp9' ? ({ codec, webmPath: '/w/transparent.webm' } as const) : h264Files;
    const args = encodeMatteArgs(plan({ audio: audio('pcm_s16le', 16), files }));
    expect(args.slice(args.indexOf('-c:a'), args.indexOf('-c:a') + expected.length)).toEqual(expected);
  });

  it('maps no sound when the input has none', () => {
    expect(encodeMatteArgs(plan({ audio: null }))).toEqual([
      ...QUIET,
      ...input,
      ...alphaFrames('256x144'),
      '-filter_complex',
      '[0:V:0]scale=640:480,settb=1/30,setpts=N,format=yuv420p[picture];[1:v]scale=640:480:flags=bilinear,settb=1/30,setpts=N[alpha];[picture][alpha]alphamerge=shortest=1[out]',
      '-map', '[out]', '-fps_mode', 'passthrough', '-fs', '1000000',
      ...vp9,
      '-f', 'webm', '-y', '/w/transparent.webm',
    ]);
  });

  it('writes an H.264 picture with the copied AAC sound and an H.264 matte made from the alpha at half the bitrate', () => {
    expect(encodeMatteArgs(plan({ audio: audio('aac'), files: h264Files }))).toEqual([
      ...QUIET,
      ...input,
      ...alphaFrames('256x144'),
      '-filter_complex',
      '[0:V:0]scale=640:480,settb=1/30,setpts=N,format=yuv420p[picture];[1:v]scale=640:480:flags=bilinear,settb=1/30,setpts=N[alpha];[alpha]format=yuv420p[matte]',
      '-map', '[picture]', '-map', '0:a:0', '-fps_mode', 'passthrough', '-fs', '1000000',
      '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-maxrate', '1106k', '-bufsize', '1106k', '-pix_fmt', 'yuv420p',
      '-g', '60', '-color_range', 'tv',
      '-c:a', 'copy',
      '-movflags', '+faststart', '-f', 'mp4', '-y', '/w/rgb.mp4',
      '-map', '[matte]', '-fps_mode', 'passthrough', '-fs', '1000000',
      '-c:v', 'libx264', '-preset', 'superfast', '-crf', '20', '-maxrate', '553k', '-bufsize', '553k', '-pix_fmt', 'yuv420p',
      '-g', '60',
      '-movflags', '+faststart', '-f', 'mp4', '-y', '/w/matte.mp4',
    ]);
  });

  it('makes the H.264 matte from a frame-size alpha without scaling it', () => {
    const args = encodeMatteArgs(plan({ alpha: { width: 640, height: 480 }, files: h264Files }));
    expect(valuesOf(args, '-filter_complex')).toEqual(['[0:V:0]scale=640:480,settb=1/30,setpts=N,format=yuv420p[picture];[1:v]settb=1/30,setpts=N[alpha];[alpha]format=yuv420p[matte]']);
  });

  it.each(['opus', 'mp3', 'pcm_s16le'])('re-encodes %s sound to AAC for the H.264 picture', (codec) => {
    const args = encodeMatteArgs(plan({ audio: audio(codec), files: h264Files }));
    expect(args.slice(args.indexOf('-c:a'), args.indexOf('-movflags'))).toEqual(['-c:a', 'aac', '-b:a', '160k']);
    expect(args.filter((arg) => arg === '-c:a')).toHaveLength(1);
  });

  it('gives the H.264 outputs no sound when the input has none', () => {
    const args = encodeMatteArgs(plan({ audio: null, files: h264Files }));
    expect(valuesOf(args, '-i')).toEqual(['/w/in', 'pipe:0']);
    expect(valuesOf(args, '-map')).toEqual(['[picture]', '[matte]']);
    expect(args).not.toContain('-c:a');
  });

  it("tags the VP9 output limited range, with the source's colour space, primaries and transfer function", () => {
    const args = encodeMatteArgs(plan({ colour: BT709 }));
    expect(args.slice(args.indexOf('-g'), args.indexOf('-c:a'))).toEqual(['-g', '60', '-color_range', 'tv', '-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709']);
  });

  it('tags the H.264 picture with the source colour tags but not the matte', () => {
    const args = encodeMatteArgs(plan({ colour: { colorSpace: 'smpte170m', colorPrimaries: 'smpte170m', colorTransfer: null }, files: h264Files }));
    expect(valuesOf(args, '-colorspace')).toEqual(['smpte170m']);
    expect(valuesOf(args, '-color_primaries')).toEqual(['smpte170m']);
    expect(valuesOf(args, '-color_range')).toEqual(['tv']);
    expect(args).not.toContain('-color_trc');
    expect(args.indexOf('-color_range')).toBeLessThan(args.indexOf('/w/rgb.mp4'));
  });

  it('writes one ProRes 4444 QuickTime with alpha at a fixed quantiser, copying AAC sound', () => {
    const args = encodeMatteArgs(plan({ audio: audio('aac'), colour: BT709, files: { codec: 'prores', movPath: '/w/transparent.mov' } }));
    expect(valuesOf(args, '-filter_complex')).toEqual([
      '[0:V:0]scale=640:480,settb=1/30,setpts=N,format=yuv420p[picture];[1:v]scale=640:480:flags=bilinear,settb=1/30,setpts=N[alpha];[picture][alpha]alphamerge=shortest=1[out]',
    ]);
    expect(args.slice(args.indexOf('[out]') - 1)).toEqual([
      '-map', '[out]', '-map', '0:a:0', '-fps_mode', 'passthrough', '-fs', '1000000',
      '-c:v', 'prores_ks', '-profile:v', '4444', '-pix_fmt', 'yuva444p10le', '-q:v', '4', '-vendor', 'apl0',
      '-color_range', 'tv', '-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709',
      '-c:a', 'copy',
      '-f', 'mov', '-y', '/w/transparent.mov',
    ]);
  });

  it('writes RGBA PNGs with nothing under the transparent pixels back to back on stdout, and the sound to a WAV of its own', () => {
    const args = encodeMatteArgs(plan({ audio: audio('aac'), files: { codec: 'png_sequence', audioPath: '/w/audio.wav' } }));
    expect(valuesOf(args, '-filter_complex')).toEqual([
      '[0:V:0]scale=640:480,settb=1/30,setpts=N,format=yuv420p[picture];[1:v]scale=640:480:flags=bilinear,settb=1/30,setpts=N[alpha];[picture][alpha]alphamerge=shortest=1,premultiply=inplace=1,unpremultiply=inplace=1,format=rgba[out]',
    ]);
    expect(args.slice(args.indexOf('[out]') - 1)).toEqual([
      '-map', '[out]', '-fps_mode', 'passthrough', '-c:v', 'png', '-f', 'image2pipe', 'pipe:1',
      '-map', '0:a:0', '-fs', '1000000', '-c:a', 'pcm_s24le', '-rf64', 'auto', '-f', 'wav', '-y', '/w/audio.wav',
    ]);
    expect(encodeMatteArgs(plan({ audio: null, files: { codec: 'png_sequence', audioPath: '/w/audio.wav' } })).slice(-2)).toEqual(['image2pipe', 'pipe:1']);
  });

  it.each([
    ['pcm_s16le', ['-c:a', 'copy']],
    ['pcm_s24le', ['-c:a', 'copy']],
    // QuickTime's big-endian PCM: the MOV takes it, WAV does not.
    ['pcm_s16be', ['-c:a', 'pcm_s24le']],
    ['pcm_s24be', ['-c:a', 'pcm_s24le']],
  ])("gives a PNG sequence's WAV %s sound as WAV takes it", (codec, expected) => {
    const args = encodeMatteArgs(plan({ audio: audio(codec), files: { codec: 'png_sequence', audioPath: '/w/audio.wav' } }));
    expect(args.slice(args.indexOf('-c:a'), args.indexOf('-rf64'))).toEqual(expected);
  });

  it.each([
    [{ color: '#00b140' }, UNTAGGED, '[picture]null[front]', 'color=c=0x00b140:s=640x480:r=30/1,format=rgb24,scale=out_color_matrix=bt601:out_range=tv,format=yuv444p[behind]'],
    [{ color: '#00b140' }, BT709, '[picture]null[front]', 'color=c=0x00b140:s=640x480:r=30/1,format=rgb24,scale=out_color_matrix=bt709:out_range=tv,format=yuv444p[behind]'],
    [{ blur: 0.5 }, UNTAGGED, '[picture]split=2[front][back]', '[back]gblur=sigma=8.0[behind]'],
  ] as const)('puts the person, edges in their own colours, on %j (%j): one opaque H.264 MP4 with the sound', (background, colour, front, behind) => {
    const args = encodeMatteArgs(plan({ audio: audio('aac'), colour, files: { codec: 'composite', mp4Path: '/w/composite.mp4', background } }));
    expect(valuesOf(args, '-filter_complex')[0].split(';').slice(2)).toEqual([
      '[alpha]split=2[merge][keep]',
      front,
      '[front][merge]alphamerge=shortest=1,format=yuva444p,split=2[cut][around]',
      '[around]premultiply=inplace=1,gblur=sigma=3.2:planes=15,unpremultiply=inplace=1,format=yuv444p[nearby]',
      '[nearby][cut]overlay=format=yuv444:shortest=1[colours]',
      '[colours][keep]alphamerge=shortest=1[person]',
      behind,
      '[behind][person]overlay=format=yuv420:shortest=1,format=yuv420p[out]',
    ]);
    expect(valuesOf(args, '-map')).toEqual(['[out]', '0:a:0']);
    expect(valuesOf(args, '-c:v')).toEqual(['libx264']);
    expect(valuesOf(args, '-c:a')).toEqual(['copy']);
    expect(args.at(-1)).toBe('/w/composite.mp4');
  });

  it('puts the person on a fetched image: read fenced as one still picture, scaled to cover, cut at the centre, repeated', () => {
    const args = encodeMatteArgs(plan({ audio: audio('aac'), colour: BT709, files: { codec: 'composite', mp4Path: '/w/composite.mp4', background: { imagePath: '/w/background-image' } } }));
    const inputs = valuesOf(args, '-i');
    expect(inputs.at(-1)).toBe('/w/background-image');
    const image = args.indexOf('/w/background-image');
    expect(args.slice(image - 7, image + 1)).toEqual(['-protocol_whitelist', 'file', '-format_whitelist', 'png_pipe,jpeg_pipe,webp_pipe', '-max_pixels', String(8256 * 8256), '-i', '/w/background-image']);
    const graph = valuesOf(args, '-filter_complex')[0].split(';');
    expect(graph).toContain('[picture]null[front]');
    expect(graph).toContain(
      `[${inputs.length - 1}:v]loop=loop=-1:size=1,settb=1/30,setpts=N,scale=640:480:force_original_aspect_ratio=increase,crop=640:480,setsar=1,format=rgb24,scale=out_color_matrix=bt709:out_range=tv,format=yuv444p[behind]`,
    );
    // The sound is still the input file's.
    expect(valuesOf(args, '-map')).toEqual(['[out]', '0:a:0']);
  });

  it.each([
    ['pcm_s24le', 2, ['-c:a', 'copy']],
    ['opus', 2, ['-c:a', 'pcm_s24le']],
    ['flac', 6, ['-c:a', 'pcm_s24le']],
    ['aac', 16, ['-c:a', 'pcm_s24le', '-af', 'pan=stereo|c0=c0|c1=c1']],
  ])('gives the ProRes QuickTime %s sound of %i channels as editors take it', (codec, channels, expected) => {
    const args = encodeMatteArgs(plan({ audio: audio(codec, channels), files: { codec: 'prores', movPath: '/w/transparent.mov' } }));
    expect(args.slice(args.indexOf('-c:a'), args.lastIndexOf('-f'))).toEqual(expected);
  });

  it('stops every output file at the plan\'s size limit', () => {
    const vp9Files = { codec: 'vp9', webmPath: '/w/transparent.webm' } as const;
    for (const files of [vp9Files, h264Files, { codec: 'prores', movPath: '/w/transparent.mov' } as const]) {
      const args = encodeMatteArgs(plan({ files, maxFileBytes: 4 * 1024 ** 3 }));
      expect(valuesOf(args, '-fs')).toEqual(Array(files === h264Files ? 2 : 1).fill('4294967296'));
    }
  });

  it('writes only the range for untagged sources', () => {
    for (const args of [encodeMatteArgs(plan()), encodeMatteArgs(plan({ files: h264Files }))]) {
      expect(args.filter((arg) => arg.startsWith('-color'))).toEqual(['-color_range']);
    }
  });

  it('caps the bitrate in proportion to the picture size (not the alpha size) and frame rate', () => {
    const hd = { width: 1920, height: 1080, filters: [] };
    expect(valuesOf(encodeMatteArgs(plan({ geometry: hd })), '-b:v')).toEqual(['6221k']);
    expect(valuesOf(encodeMatteArgs(plan({ geometry: hd, alpha: hd })), '-b:v')).toEqual(['6221k']);
    expect(valuesOf(encodeMatteArgs(plan({ fps: 60, frameRate: '60/1' })), '-b:v')).toEqual(['1843k']);
    expect(valuesOf(encodeMatteArgs(plan({ geometry: hd, files: h264Files })), '-maxrate')).toEqual(['7465k', '3732k']);
  });

  it('caps the bitrate as for 60 fps above 60 fps', () => {
    expect(valuesOf(encodeMatteArgs(plan({ fps: 120, frameRate: '120/1' })), '-b:v')).toEqual(['1843k']);
  });

  it('never caps the bitrate below 100 kbit/s', () => {
    const tiny = { width: 16, height: 16, filters: [] };
    expect(valuesOf(encodeMatteArgs(plan({ geometry: tiny })), '-b:v')).toEqual(['100k']);
    expect(valuesOf(encodeMatteArgs(plan({ geometry: tiny, files: h264Files })), '-maxrate')).toEqual(['100k', '100k']);
  });

  it.each([
    [30000 / 1001, '60'],
    [24000 / 1001, '48'],
    [25, '50'],
    [0.2, '1'],
  ])('puts a keyframe every two seconds at %f fps: -g %s', (fps, gop) => {
    expect(valuesOf(encodeMatteArgs(plan({ fps })), '-g')).toEqual([gop]);
    expect(valuesOf(encodeMatteArgs(plan({ fps, files: h264Files })), '-g')).toEqual([gop, gop]);
  });
});

describe('a segment of a long video (decision 0100)', () => {
  const window = { start: 250, warmup: 120, end: 900 };

  it('decodes the frames of its window only, counted by the decoded frame, before anything else', () => {
    const args = decodeFramesArgs(decodePlan({ window }));
    expect(valuesOf(args, '-filter_complex')).toEqual(['[0:V:0]trim=start_frame=250:end_frame=900,scale=640:480,scale=256:144:flags=area,format=yuv444p[model]']);
  });

  it('encodes, from the file, the frames after the warm-up, without sound', () => {
    const args = encodeMatteArgs(plan({ window, audio: null }));
    expect(valuesOf(args, '-filter_complex')[0]).toMatch(/^\[0:V:0\]trim=start_frame=370:end_frame=900,scale=640:480,settb=1\/30,setpts=N,format=yuv420p\[picture\];\[1:v\]scale/);
    expect(valuesOf(args, '-map')).toEqual(['[out]']);
  });

  it("takes the worker's frames as they come: the worker keeps the warm-up from the encoder", () => {
    const args = encodeMatteArgs(plan({ window, audio: null, pictures: 'worker', alpha: { width: 640, height: 480 } }));
    expect(valuesOf(args, '-filter_complex')[0]).toMatch(/^\[0:v\]settb=1\/30,setpts=N\[picture\];\[1:v\]settb/);
  });

  it('seeks to the keyframe before the window where the times are known, and picks the frames by their own times', () => {
    const times = { seek: 8.01, start: 8.38, delivered: 10.02, end: 30.02 };
    const decode = decodeFramesArgs(decodePlan({ window: { ...window, times } }));
    expect(decode.slice(decode.indexOf('-reinit_filter') + 2, decode.indexOf('-protocol_whitelist'))).toEqual(['-seek_timestamp', '1', '-ss', '8.01', '-noaccurate_seek', '-copyts']);
    expect(valuesOf(decode, '-filter_complex')[0]).toMatch(/^\[0:V:0\]trim=start=8.38:end=30.02,scale/);
    expect(decode).not.toContain('-t');
    const encode = encodeMatteArgs(plan({ window: { ...window, times }, audio: null }));
    expect(encode).toEqual(expect.arrayContaining(['-seek_timestamp', '1', '-ss', '8.01', '-noaccurate_seek', '-copyts']));
    expect(valuesOf(encode, '-filter_complex')[0]).toMatch(/^\[0:V:0\]trim=start=10.02:end=30.02,/);
  });

  it('reads the first segment by time from the start, its frames keeping their own times', () => {
    const decode = decodeFramesArgs(decodePlan({ window: { start: 0, warmup: 0, end: 600, times: { seek: null, start: 0.4, delivered: 0.4, end: 21.38 } } }));
    expect(decode.slice(decode.indexOf('-reinit_filter') + 2, decode.indexOf('-protocol_whitelist'))).toEqual(['-copyts']);
    expect(valuesOf(decode, '-filter_complex')[0]).toMatch(/^\[0:V:0\]trim=start=0.4:end=21.38,/);
  });

  it('refuses sound and exports: a segment is matted, and the join adds the sound', () => {
    expect(() => encodeMatteArgs(plan({ window }))).toThrow('a segment is matted, and silent');
    expect(() => encodeMatteArgs(plan({ window, audio: null, matteFrom: '/w/kept.mkv' }))).toThrow('a segment is matted, and silent');
  });
});

describe('a plate pass (decision 0100)', () => {
  it('decodes one frame in `every`, from the first, before turning and scaling', () => {
    const [graph] = valuesOf(decodeFramesArgs(decodePlan({ every: 5 })), '-filter_complex');
    expect(graph!.startsWith('[0:V:0]select=not(mod(n\\,5)),')).toBe(true);
    expect(decodeFramesArgs(decodePlan({ every: 1 }))).toEqual(decodeFramesArgs(decodePlan()));
  });

  it('refuses a step that is not a whole number of frames', () => {
    for (const every of [0, 2.5, -5]) expect(() => decodeFramesArgs(decodePlan({ every }))).toThrow(RangeError);
  });
});

describe('joinSegmentsArgs', () => {
  const join = (overrides: Partial<JoinPlan> = {}): JoinPlan => ({
    inputPath: '/w/in',
    maxSeconds: 60,
    audio: audio('aac'),
    listPath: '/w/rgb.ffconcat',
    container: 'mp4',
    withSound: true,
    maxFileBytes: 1_000_000,
    outputPath: '/w/rgb.mp4',
    ...overrides,
  });

  it("copies the segments' packets from our own list and adds the input's sound, fenced, as one run would", () => {
    expect(joinSegmentsArgs(join())).toEqual([
      ...QUIET,
      '-f', 'concat', '-safe', '0', '-protocol_whitelist', 'file', '-i', '/w/rgb.ffconcat',
      '-vn', '-t', '61', ...FENCED, '-i', '/w/in',
      '-map', '0:v:0', '-map', '1:a:0', '-c:v', 'copy', '-fps_mode', 'passthrough', '-fs', '1000000',
      '-c:a', 'copy',
      '-movflags', '+faststart', '-f', 'mp4', '-y', '/w/rgb.mp4',
    ]);
  });

  it('gives a WebM Opus sound and a QuickTime PCM, and the matte and a silent input none', () => {
    expect(joinSegmentsArgs(join({ container: 'webm', outputPath: '/w/t.webm' }))).toEqual(expect.arrayContaining(['-c:a', 'libopus']));
    expect(joinSegmentsArgs(join({ container: 'mov', audio: audio('pcm_s16le'), outputPath: '/w/t.mov' }))).toEqual(expect.arrayContaining(['-c:a', 'copy', '-f', 'mov']));
    expect(valuesOf(joinSegmentsArgs(join({ withSound: false })), '-i')).toEqual(['/w/rgb.ffconcat']);
    expect(valuesOf(joinSegmentsArgs(join({ audio: null })), '-map')).toEqual(['0:v:0']);
  });

  it("writes a PNG sequence's sound to its WAV as 24-bit PCM unless it is PCM a WAV takes", () => {
    const args = sequenceSoundArgs({ inputPath: '/w/in', maxSeconds: 60, maxFileBytes: 1_000_000, audio: audio('aac'), wavPath: '/w/audio.wav' });
    expect(args).toEqual([...QUIET, '-vn', '-t', '61', ...FENCED, '-i', '/w/in', '-map', '0:a:0', '-fs', '1000000', '-c:a', 'pcm_s24le', '-rf64', 'auto', '-f', 'wav', '-y', '/w/audio.wav']);
  });
});
