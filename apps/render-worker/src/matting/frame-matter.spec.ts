import { FrameMatter, type FrameMatterSettings } from './frame-matter';
import { DEFAULT_MATTE } from './matte-builder';
import type { MattingModelSpec, Segmenter } from './matting-model';
import { DEFAULT_SMOOTHING } from './temporal-smoother';

const [WIDTH, HEIGHT] = [8, 4];
const YUV_BYTES = (WIDTH * HEIGHT * 3) / 2;
const SPEC: MattingModelSpec = { name: 'fake', path: '/models/fake.onnx', width: 4, height: 2, layout: 'nhwc', mean: [0, 0, 0], std: [1, 1, 1], output: 'probability' };

const SETTINGS: FrameMatterSettings = {
  width: WIDTH,
  height: HEIGHT,
  matrix: 'bt601',
  matte: { ...DEFAULT_MATTE, refine: false },
  // Each frame's alpha then depends on its own mask only.
  smoothing: { ...DEFAULT_SMOOTHING, stillRate: 1 },
};

// A model whose answers the test settles by hand, in any order; it keeps a copy of each input.
class FakeSegmenter implements Segmenter {
  readonly spec = SPEC;
  readonly inputs: Float32Array[] = [];
  readonly seen: Float32Array[] = [];
  private readonly answers: ((mask: Float32Array) => void)[] = [];

  segment(input: Float32Array): Promise<Float32Array> {
    this.inputs.push(input);
    this.seen.push(input.slice());
    return new Promise((resolve) => this.answers.push(resolve));
  }

  answer(call: number, value: number): void {
    this.answers[call](new Float32Array(SPEC.width * SPEC.height).fill(value));
  }
}

// A decoded frame as readFrames gives it: yuv420p bytes with room after them for the alpha plane.
function frame(y: number): Buffer {
  const buffer = Buffer.alloc(YUV_BYTES + WIDTH * HEIGHT, 0xee);
  buffer.fill(y, 0, WIDTH * HEIGHT);
  buffer.fill(128, WIDTH * HEIGHT, YUV_BYTES);
  return buffer;
}

// The decoder's model-size copy of a frame (yuv444p): its luma and neutral chroma.
function smallOf(decoded: Buffer): Buffer {
  const pixels = SPEC.width * SPEC.height;
  const small = Buffer.alloc(pixels * 3, 128);
  small.fill(decoded[0], 0, pixels);
  return small;
}

describe('FrameMatter', () => {
  it('sizes a yuv420p frame and the yuva420p frame it becomes', () => {
    const matter = new FrameMatter(new FakeSegmenter(), SETTINGS);
    expect(matter.yuvBytes).toBe(48);
    expect(matter.yuvaBytes).toBe(80);
  });

  it("runs the model on the decoder's model-size copy of the frame and writes the alpha plane after the yuv420p bytes", async () => {
    const segmenter = new FakeSegmenter();
    const matter = new FrameMatter(segmenter, SETTINGS);
    const input = frame(126);
    const yuv = Buffer.from(input.subarray(0, YUV_BYTES));
    const pending = matter.start(input, smallOf(input));
    expect(segmenter.inputs).toHaveLength(1);
    expect(segmenter.inputs[0]).toHaveLength(SPEC.width * SPEC.height * 3);
    segmenter.seen[0].forEach((value) => expect(value).toBeCloseTo((126 - 16) / 219, 5));
    segmenter.answer(0, 0.8);
    const alpha = await matter.finish(pending);
    expect(Array.from(alpha)).toEqual(Array(WIDTH * HEIGHT).fill(255));
    expect([...input.subarray(YUV_BYTES)]).toEqual(Array(WIDTH * HEIGHT).fill(255));
    expect(input.subarray(0, YUV_BYTES).equals(yuv)).toBe(true);
  });

  it('returns the alpha plane as a view into the frame buffer', async () => {
    const segmenter = new FakeSegmenter();
    const matter = new FrameMatter(segmenter, SETTINGS);
    const input = frame(126);
    const pending = matter.start(input, smallOf(input));
    segmenter.answer(0, 0.2);
    const alpha = await matter.finish(pending);
    alpha[0] = 99;
    expect(input[YUV_BYTES]).toBe(99);
  });

  it('keeps two frames in flight apart: each has its own model input and gets its own mask', async () => {
    const segmenter = new FakeSegmenter();
    const matter = new FrameMatter(segmenter, SETTINGS);
    const [first, second] = [frame(16), frame(235)];
    const pendingFirst = matter.start(first, smallOf(first));
    const pendingSecond = matter.start(second, smallOf(second));
    // The first run still reads its input while the second frame is sampled.
    expect(segmenter.inputs[1]).not.toBe(segmenter.inputs[0]);
    expect(Array.from(segmenter.inputs[0])).toEqual(Array.from(segmenter.seen[0]));
    expect(segmenter.seen[0].every((value) => value === 0)).toBe(true);
    expect(segmenter.seen[1].every((value) => value === 1)).toBe(true);
    // The models answer out of order; the frames are still finished in order.
    segmenter.answer(1, 0.2);
    segmenter.answer(0, 0.8);
    expect(Array.from(await matter.finish(pendingFirst))).toEqual(Array(WIDTH * HEIGHT).fill(255));
    expect(Array.from(await matter.finish(pendingSecond))).toEqual(Array(WIDTH * HEIGHT).fill(0));
  });

  it('reuses the first model input for the third frame once the first is finished', async () => {
    const segmenter = new FakeSegmenter();
    const matter = new FrameMatter(segmenter, SETTINGS);
    const pendingFirst = matter.start(frame(16), smallOf(frame(16)));
    matter.start(frame(126), smallOf(frame(126)));
    segmenter.answer(0, 0.5);
    await matter.finish(pendingFirst);
    matter.start(frame(235), smallOf(frame(235)));
    expect(segmenter.inputs[2]).toBe(segmenter.inputs[0]);
  });

  it('smooths each mask against the one finished before it', async () => {
    const segmenter = new FakeSegmenter();
    const matter = new FrameMatter(segmenter, { ...SETTINGS, smoothing: DEFAULT_SMOOTHING });
    const first = matter.start(frame(126), smallOf(frame(126)));
    const second = matter.start(frame(126), smallOf(frame(126)));
    segmenter.answer(0, 0.3);
    segmenter.answer(1, 0.7);
    await matter.finish(first);
    // Still picture: 0.3 + stillRate * (0.7 - 0.3) = 0.42, alpha (0.42 - 0.3) / 0.4 * 255 = 76.5.
    for (const alpha of await matter.finish(second)) expect(Math.abs(alpha - 76.5)).toBeLessThanOrEqual(0.5);
  });

  // Jest fails a test on an unhandled rejection, so the wait before finish() would catch one.
  it("rejects finish with the model's error, without an unhandled rejection before it", async () => {
    const segmenter: Segmenter = { spec: SPEC, segment: () => Promise.reject(new Error('model failed')) };
    const matter = new FrameMatter(segmenter, SETTINGS);
    const pending = matter.start(frame(126), smallOf(frame(126)));
    await new Promise((resolve) => setImmediate(resolve));
    await expect(matter.finish(pending)).rejects.toThrow('model failed');
  });
});
