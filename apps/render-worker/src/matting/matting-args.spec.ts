import type { AudioStreamProbe } from '../media';
import { decodeFramesArgs, encodeMatteArgs, type EncodePlan } from './matting-args';

const QUIET = ['-hide_banner', '-nostdin', '-v', 'error'];
const VGA = { width: 640, height: 480, filters: [] };

function audio(codecName: string, channels = 2): AudioStreamProbe {
  return { codecName, sampleRate: 48000, channels, durationSeconds: 2, language: null };
}

function plan(overrides: Partial<EncodePlan> = {}): EncodePlan {
  return {
    inputPath: '/w/in',
    geometry: VGA,
    frameRate: '30/1',
    fps: 30,
    audio: audio('opus'),
    colorSpace: null,
    files: { codec: 'vp9', webmPath: '/w/transparent.webm' },
    ...overrides,
  };
}

const h264Files = { codec: 'h264', rgbPath: '/w/rgb.mp4', mattePath: '/w/matte.mp4' } as const;

// The value after each occurrence of `flag`, in order.
function valuesOf(args: string[], flag: string): string[] {
  return args.flatMap((arg, i) => (arg === flag ? [args[i + 1]] : []));
}

describe('decodeFramesArgs', () => {
  it('decodes the first real video stream unrotated to raw yuv420p on stdout, a second past the limit', () => {
    expect(decodeFramesArgs({ inputPath: '/w/in', geometry: VGA, maxSeconds: 60 })).toEqual([
      ...QUIET,
      '-noautorotate',
      '-i', '/w/in',
      '-map', '0:V:0',
      '-t', '61',
      '-fps_mode', 'passthrough',
      '-pix_fmt', 'yuv420p',
      '-f', 'rawvideo',
      'pipe:1',
    ]);
  });

  it("applies the geometry's filters as one -vf chain before choosing the pixel format", () => {
    const geometry = { width: 2160, height: 3840, filters: ['transpose=clock', 'scale=2160:3840:flags=area'] };
    expect(decodeFramesArgs({ inputPath: '/w/in', geometry, maxSeconds: 60 })).toEqual([
      ...QUIET,
      '-noautorotate',
      '-i', '/w/in',
      '-map', '0:V:0',
      '-t', '61',
      '-vf', 'transpose=clock,scale=2160:3840:flags=area',
      '-fps_mode', 'passthrough',
      '-pix_fmt', 'yuv420p',
      '-f', 'rawvideo',
      'pipe:1',
    ]);
  });

  it("also writes every frame scaled to the model's input, as yuv444p on pipe:3, from one decode", () => {
    const geometry = { width: 320, height: 240, filters: ['crop=320:240:0:0'] };
    expect(decodeFramesArgs({ inputPath: '/w/in', geometry, maxSeconds: 60, modelInput: { width: 256, height: 144 } })).toEqual([
      ...QUIET,
      '-noautorotate',
      '-i', '/w/in',
      '-filter_complex', '[0:V:0]crop=320:240:0:0,split=2[frame][small];[small]scale=256:144:flags=area,format=yuv444p[model]',
      '-map', '[frame]', '-t', '61', '-fps_mode', 'passthrough', '-pix_fmt', 'yuv420p', '-f', 'rawvideo', 'pipe:1',
      '-map', '[model]', '-t', '61', '-fps_mode', 'passthrough', '-f', 'rawvideo', 'pipe:3',
    ]);
  });
});

describe('encodeMatteArgs', () => {
  const frames = ['-f', 'rawvideo', '-pix_fmt', 'yuva420p', '-s', '640x480', '-framerate', '30/1', '-i', 'pipe:0'];

  it('encodes VP9 with alpha in WebM at the realtime preset, copying Opus sound from the input', () => {
    expect(encodeMatteArgs(plan())).toEqual([
      ...QUIET,
      ...frames,
      '-i', '/w/in',
      '-map', '0:v', '-map', '1:a:0',
      '-c:v', 'libvpx-vp9', '-pix_fmt', 'yuva420p',
      '-deadline', 'realtime', '-cpu-used', '8', '-row-mt', '1',
      '-crf', '30', '-b:v', '922k', '-g', '60',
      '-c:a', 'copy',
      '-f', 'webm', '-y', '/w/transparent.webm',
    ]);
  });

  it('re-encodes stereo AAC sound to Opus for WebM', () => {
    const args = encodeMatteArgs(plan({ audio: audio('aac', 2) }));
    expect(args.slice(args.indexOf('-c:a'), args.indexOf('-f', args.indexOf('-c:a')))).toEqual(['-c:a', 'libopus', '-b:a', '128k']);
  });

  it('downmixes sound of more than two channels to stereo for Opus', () => {
    const args = encodeMatteArgs(plan({ audio: audio('aac', 6) }));
    expect(args.slice(args.indexOf('-c:a'), args.indexOf('-f', args.indexOf('-c:a')))).toEqual(['-c:a', 'libopus', '-b:a', '128k', '-ac', '2']);
  });

  it('reads the input no second time and maps no sound when it has none', () => {
    expect(encodeMatteArgs(plan({ audio: null }))).toEqual([
      ...QUIET,
      ...frames,
      '-map', '0:v',
      '-c:v', 'libvpx-vp9', '-pix_fmt', 'yuva420p',
      '-deadline', 'realtime', '-cpu-used', '8', '-row-mt', '1',
      '-crf', '30', '-b:v', '922k', '-g', '60',
      '-f', 'webm', '-y', '/w/transparent.webm',
    ]);
  });

  it('splits the frames into an H.264 picture with the copied AAC sound and an H.264 matte at half the bitrate', () => {
    expect(encodeMatteArgs(plan({ audio: audio('aac'), files: h264Files }))).toEqual([
      ...QUIET,
      ...frames,
      '-i', '/w/in',
      '-filter_complex', '[0:v]split=2[picture][alpha];[picture]format=yuv420p[rgb];[alpha]alphaextract,format=yuv420p[matte]',
      '-map', '[rgb]', '-map', '1:a:0',
      '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-maxrate', '1106k', '-bufsize', '1106k', '-pix_fmt', 'yuv420p',
      '-g', '60',
      '-c:a', 'copy',
      '-movflags', '+faststart', '-f', 'mp4', '-y', '/w/rgb.mp4',
      '-map', '[matte]',
      '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-maxrate', '553k', '-bufsize', '553k', '-pix_fmt', 'yuv420p',
      '-g', '60',
      '-movflags', '+faststart', '-f', 'mp4', '-y', '/w/matte.mp4',
    ]);
  });

  it.each(['opus', 'mp3', 'pcm_s16le'])('re-encodes %s sound to AAC for the H.264 picture', (codec) => {
    const args = encodeMatteArgs(plan({ audio: audio(codec), files: h264Files }));
    expect(args.slice(args.indexOf('-c:a'), args.indexOf('-movflags'))).toEqual(['-c:a', 'aac', '-b:a', '160k']);
    expect(args.filter((arg) => arg === '-c:a')).toHaveLength(1);
  });

  it('gives the H.264 outputs no sound when the input has none', () => {
    const args = encodeMatteArgs(plan({ audio: null, files: h264Files }));
    expect(valuesOf(args, '-i')).toEqual(['pipe:0']);
    expect(valuesOf(args, '-map')).toEqual(['[rgb]', '[matte]']);
    expect(args).not.toContain('-c:a');
  });

  it('tags the VP9 output with the source colour space', () => {
    const args = encodeMatteArgs(plan({ colorSpace: 'bt709' }));
    expect(args.slice(args.indexOf('-g'), args.indexOf('-c:a'))).toEqual(['-g', '60', '-colorspace', 'bt709']);
  });

  it('tags the H.264 picture with the source colour space but not the matte', () => {
    const args = encodeMatteArgs(plan({ colorSpace: 'smpte170m', files: h264Files }));
    expect(valuesOf(args, '-colorspace')).toEqual(['smpte170m']);
    expect(args.indexOf('-colorspace')).toBeLessThan(args.indexOf('/w/rgb.mp4'));
  });

  it('writes no colour space tag for untagged sources', () => {
    expect(encodeMatteArgs(plan())).not.toContain('-colorspace');
    expect(encodeMatteArgs(plan({ files: h264Files }))).not.toContain('-colorspace');
  });

  it('caps the bitrate in proportion to the picture size and frame rate', () => {
    const hd = { width: 1920, height: 1080, filters: [] };
    expect(valuesOf(encodeMatteArgs(plan({ geometry: hd })), '-b:v')).toEqual(['6221k']);
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

  it('numbers the frames at the rate ffmpeg stated for the input', () => {
    expect(valuesOf(encodeMatteArgs(plan({ fps: 30000 / 1001, frameRate: '30000/1001' })), '-framerate')).toEqual(['30000/1001']);
  });
});
