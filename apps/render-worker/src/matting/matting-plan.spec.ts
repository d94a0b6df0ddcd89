import type { MediaProbe, VideoStreamProbe } from '../media';
import type { MattingModelSpec, Segmenter } from './matting-model';
import { mattingPlan, type MattingRequest } from './matting-plan';

function segmenter(width: number, height: number): Segmenter {
  const spec: MattingModelSpec = { name: 'person', path: `/models/${width}x${height}.onnx`, width, height, layout: 'nhwc', mean: [0, 0, 0], std: [1, 1, 1], output: 'probability' };
  return { spec, segment: () => Promise.reject(new Error('not run in a plan')) };
}

const SQUARE = segmenter(256, 256);
const LANDSCAPE = segmenter(256, 144);

function video(overrides: Partial<VideoStreamProbe> = {}): VideoStreamProbe {
  return { codecName: 'h264', width: 1280, height: 720, fps: 30, frameRate: '30/1', nbFrames: 60, durationSeconds: 2, rotation: 0, colorSpace: null, colorPrimaries: null, colorTransfer: null, ...overrides };
}

function probeOf(stream: VideoStreamProbe, withSound = true): MediaProbe {
  return {
    formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
    durationSeconds: 2,
    video: stream,
    audio: withSound ? { codecName: 'aac', sampleRate: 48000, channels: 2, durationSeconds: 2, language: null } : null,
  };
}

function request(overrides: Partial<MattingRequest> = {}): MattingRequest {
  return {
    inputPath: '/w/in.mp4',
    maxSeconds: 60,
    refine: false,
    segmenters: [SQUARE, LANDSCAPE],
    tracking: null,
    files: { codec: 'vp9', webmPath: '/w/transparent.webm' },
    maxFileBytes: 1_000_000,
    ...overrides,
  };
}

function planFor(stream: VideoStreamProbe, overrides: Partial<MattingRequest> = {}, withSound = true) {
  return mattingPlan(probeOf(stream, withSound), stream, request(overrides));
}

// The value after each occurrence of `flag`, in order (none in a plate pass's absent encoder arguments).
function valuesOf(args: string[] | null, flag: string): string[] {
  return (args ?? []).flatMap((arg, i, all) => (arg === flag ? [all[i + 1]] : []));
}

describe('mattingPlan', () => {
  it("picks the model variant closest to the upright frame's shape", () => {
    expect(planFor(video()).segmenter).toBe(LANDSCAPE);
    expect(planFor(video({ width: 1080, height: 1080 })).segmenter).toBe(SQUARE);
    // A phone's landscape recording marked as turned: upright it is portrait.
    const turned = planFor(video({ rotation: 90 }));
    expect(turned.segmenter).toBe(SQUARE);
    expect(turned.geometry).toEqual({ width: 720, height: 1280, filters: ['transpose=clock'] });
  });

  it('gives crops the largest variant, whatever the frame\'s shape (decision 0070)', () => {
    expect(planFor(video()).cropSegmenter).toBe(SQUARE);
    expect(planFor(video({ width: 1080, height: 1080 })).cropSegmenter).toBe(SQUARE);
    expect(planFor(video(), { segmenters: [LANDSCAPE] }).cropSegmenter).toBe(LANDSCAPE);
  });

  it("without refinement or tracking reads model-size frames only and hands the encoder alpha at the model's size", () => {
    const plan = planFor(video());
    expect(plan.alpha).toEqual({ width: 256, height: 144 });
    expect(plan.smallBytes).toBe(256 * 144 * 3);
    expect(plan.side).toBeNull();
    expect(plan.sideBytes).toBe(0);
    expect(plan.decodeArgs).toContain('-skip_loop_filter');
    expect(plan.decodeArgs).not.toContain('pipe:3');
    expect(plan.sideIsPicture).toBe(false);
    expect(valuesOf(plan.encodeArgs, '-i')).toEqual(['/w/in.mp4', 'pipe:0']);
    expect(valuesOf(plan.encodeArgs, '-s')).toEqual(['256x144']);
    expect(valuesOf(plan.encodeArgs, '-filter_complex')[0]).toContain('[1:v]scale=1280:720:flags=bilinear,');
  });

  it('when tracking without refinement also reads the frame as yuv420p at most sourceScale times the model input a side', () => {
    const plan = planFor(video({ width: 640, height: 480 }), { tracking: { sourceScale: 2 } });
    expect(plan.side).toEqual({ width: 384, height: 288 });
    expect(plan.sideBytes).toBe((384 * 288 * 3) / 2);
    expect(plan.decodeArgs).toContain('-skip_loop_filter');
    expect(plan.decodeArgs).toContain('pipe:3');
    expect(plan.alpha).toEqual({ width: 256, height: 144 });
    expect(plan.sideIsPicture).toBe(false);
    expect(plan.smallFromSide).toBe(false);
    // A frame already within that size is read at its own, and is the picture the encoder gets.
    const small = planFor(video({ width: 320, height: 240 }), { tracking: { sourceScale: 2 } });
    expect(small.side).toEqual({ width: 320, height: 240 });
    expect(small.sideIsPicture).toBe(true);
    expect(small.smallFromSide).toBe(false);
    expect(valuesOf(small.encodeArgs, '-i')).toEqual(['pipe:0', 'pipe:3', '/w/in.mp4']);
  });

  it("when the side frame is exactly twice the model's input (the model's shape), reads it alone and makes the model's frame from it", () => {
    const plan = planFor(video(), { tracking: { sourceScale: 2 } });
    expect(plan.side).toEqual({ width: 512, height: 288 });
    expect(plan.smallFromSide).toBe(true);
    expect(plan.decodeArgs).toContain('-skip_loop_filter');
    expect(plan.decodeArgs).not.toContain('pipe:3');
    expect(valuesOf(plan.decodeArgs, '-filter_complex')).toEqual(['[0:V:0]scale=1280:720,scale=512:288:flags=area,format=yuv420p[side]']);
    expect(plan.sideIsPicture).toBe(false);
  });

  it("with refinement also reads the full-size frame and hands the encoder alpha at the frame's size", () => {
    const plan = planFor(video(), { refine: true });
    expect(plan.alpha).toEqual({ width: 1280, height: 720 });
    expect(plan.smallBytes).toBe(256 * 144 * 3);
    expect(plan.side).toEqual({ width: 1280, height: 720 });
    expect(plan.sideBytes).toBe((1280 * 720 * 3) / 2);
    // Tracking reads the crop from that same full-size frame.
    expect(planFor(video(), { refine: true, tracking: { sourceScale: 2 } }).side).toEqual({ width: 1280, height: 720 });
    expect(plan.decodeArgs).not.toContain('-skip_loop_filter');
    expect(plan.decodeArgs).toContain('pipe:3');
    // The full-size side frame is the picture: the worker hands it to the encoder, which decodes nothing.
    expect(plan.sideIsPicture).toBe(true);
    expect(plan.smallFromSide).toBe(false);
    expect(valuesOf(plan.encodeArgs, '-s')).toEqual(['1280x720', '1280x720']);
    expect(valuesOf(plan.encodeArgs, '-i')).toEqual(['pipe:0', 'pipe:3', '/w/in.mp4']);
    // The alpha goes in unscaled.
    expect(valuesOf(plan.encodeArgs, '-filter_complex')[0]).toContain('[1:v]settb=');
    expect(valuesOf(plan.encodeArgs, '-filter_complex')[0]).toMatch(/^\[0:v\]settb=/);
  });

  it("scales the decoder's frames to the chosen variant's input", () => {
    const graph = valuesOf(planFor(video({ width: 1080, height: 1080 })).decodeArgs, '-filter_complex')[0];
    expect(graph).toContain('scale=256:256:flags=area,format=yuv444p');
  });

  it("numbers frames at the stream's own rate", () => {
    const plan = planFor(video({ fps: 30000 / 1001, frameRate: '30000/1001' }));
    expect(plan.fps).toBeCloseTo(29.97, 2);
    expect(valuesOf(plan.encodeArgs, '-framerate')).toEqual(['30000/1001']);
    expect(valuesOf(plan.encodeArgs, '-filter_complex')[0]).toContain('settb=1001/30000,setpts=N');
  });

  it('falls back to 25 fps when the stream states no frame rate', () => {
    const plan = planFor(video({ fps: null, frameRate: null }));
    expect(plan.fps).toBe(25);
    expect(valuesOf(plan.encodeArgs, '-framerate')).toEqual(['25']);
    expect(valuesOf(plan.encodeArgs, '-g')).toEqual(['50']);
  });

  it("reads the input's colour matrix for the model and tags the output with its colour space", () => {
    expect(planFor(video()).matrix).toBe('bt709');
    const tagged = planFor(video({ colorSpace: 'smpte170m' }));
    expect(tagged.matrix).toBe('bt601');
    expect(valuesOf(tagged.encodeArgs, '-colorspace')).toEqual(['smpte170m']);
  });

  it('builds the decode and encode arguments for the same input, limit and output files', () => {
    const plan = planFor(video(), { maxSeconds: 10, files: { codec: 'h264', rgbPath: '/w/rgb.mp4', mattePath: '/w/matte.mp4' } });
    expect(valuesOf(plan.decodeArgs, '-i')).toEqual(['/w/in.mp4']);
    expect(valuesOf(plan.decodeArgs, '-t')).toEqual(['11']);
    expect(valuesOf(plan.encodeArgs, '-i')).toEqual(['/w/in.mp4', 'pipe:0']);
    expect(valuesOf(plan.encodeArgs, '-t')).toEqual(['11']);
    expect(plan.encodeArgs).toContain('/w/rgb.mp4');
    expect(plan.encodeArgs).toContain('/w/matte.mp4');
  });

  it("maps the input's sound only when the probe found some", () => {
    expect(valuesOf(planFor(video()).encodeArgs, '-map')).toContain('0:a:0');
    expect(valuesOf(planFor(video(), {}, false).encodeArgs, '-map')).not.toContain('0:a:0');
  });

  it('plans a plate pass: one frame in `every` decoded, and no encoder', () => {
    const plan = planFor(video(), { files: null, every: 5 });
    expect(plan.encodeArgs).toBeNull();
    expect(valuesOf(plan.decodeArgs, '-filter_complex')[0]).toContain('select=not(mod(n\\,5))');
  });
});
