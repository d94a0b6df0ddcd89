import { FrameMatter, type FrameMatterSettings } from './frame-matter';
import { DEFAULT_MATTE } from './matte-builder';
import type { MattingModelSpec, Segmenter } from './matting-model';
import { DEFAULT_SMOOTHING } from './temporal-smoother';

const [WIDTH, HEIGHT] = [8, 4];
const SPEC: MattingModelSpec = { name: 'fake', path: '/models/fake.onnx', width: 4, height: 2, layout: 'nhwc', mean: [0, 0, 0], std: [1, 1, 1], output: 'probability' };
const MODEL_PIXELS = SPEC.width * SPEC.height;

const SETTINGS: FrameMatterSettings = {
  width: WIDTH,
  height: HEIGHT,
  matrix: 'bt601',
  matte: { ...DEFAULT_MATTE, refine: false },
  // Each frame's alpha then depends on its own mask only.
  smoothing: { ...DEFAULT_SMOOTHING, stillRate: 1 },
  depth: 2,
};
const REFINED: FrameMatterSettings = { ...SETTINGS, matte: { ...DEFAULT_MATTE, refine: true } };

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
    this.answers[call](new Float32Array(MODEL_PIXELS).fill(value));
  }
}

// A frame as the decoder writes it at the model's size (yuv444p): one luma value, neutral chroma.
function small(y: number): Buffer {
  const frame = Buffer.alloc(MODEL_PIXELS * 3, 128);
  frame.fill(y, 0, MODEL_PIXELS);
  return frame;
}

// The decoder's full-size Y plane, for refinement.
const fullLuma = (y: number) => new Uint8Array(WIDTH * HEIGHT).fill(y);

describe('FrameMatter', () => {
  it("runs the model on the decoder's model-size frame and returns an alpha of the model's size without refinement", async () => {
    const segmenter = new FakeSegmenter();
    const matter = new FrameMatter(segmenter, SETTINGS);
    const pending = matter.start(small(126), undefined);
    expect(segmenter.inputs).toHaveLength(1);
    expect(segmenter.inputs[0]).toHaveLength(MODEL_PIXELS * 3);
    segmenter.seen[0].forEach((value) => expect(value).toBeCloseTo((126 - 16) / 219, 5));
    segmenter.answer(0, 0.8);
    expect(Array.from(await matter.finish(pending))).toEqual(Array(MODEL_PIXELS).fill(255));
  });

  it("returns an alpha of the frame's size with refinement, guided by the full-size luma", async () => {
    const segmenter = new FakeSegmenter();
    const matter = new FrameMatter(segmenter, REFINED);
    const pending = matter.start(small(126), fullLuma(126));
    segmenter.answer(0, 0.5);
    const alpha = await matter.finish(pending);
    expect(alpha).toHaveLength(WIDTH * HEIGHT);
    // A flat picture gives the guided filter nothing to follow: the mask's 0.5 stays mid-ramp.
    alpha.forEach((value) => expect(Math.abs(value - 128)).toBeLessThanOrEqual(1));
  });

  it('gives every frame its own alpha, so one still held by the encoder is never overwritten', async () => {
    const segmenter = new FakeSegmenter();
    const matter = new FrameMatter(segmenter, SETTINGS);
    const pendingFirst = matter.start(small(126), undefined);
    const pendingSecond = matter.start(small(126), undefined);
    segmenter.answer(0, 0.8);
    segmenter.answer(1, 0.2);
    const first = await matter.finish(pendingFirst);
    const second = await matter.finish(pendingSecond);
    expect(second).not.toBe(first);
    expect(Array.from(first)).toEqual(Array(MODEL_PIXELS).fill(255));
  });

  it('keeps two frames in flight apart: each has its own model input and gets its own mask', async () => {
    const segmenter = new FakeSegmenter();
    const matter = new FrameMatter(segmenter, SETTINGS);
    const pendingFirst = matter.start(small(16), undefined);
    const pendingSecond = matter.start(small(235), undefined);
    // The first run still reads its input while the second frame is written.
    expect(segmenter.inputs[1]).not.toBe(segmenter.inputs[0]);
    expect(Array.from(segmenter.inputs[0])).toEqual(Array.from(segmenter.seen[0]));
    expect(segmenter.seen[0].every((value) => value === 0)).toBe(true);
    expect(segmenter.seen[1].every((value) => value === 1)).toBe(true);
    // The models answer out of order; the frames are still finished in order.
    segmenter.answer(1, 0.2);
    segmenter.answer(0, 0.8);
    expect(Array.from(await matter.finish(pendingFirst))).toEqual(Array(MODEL_PIXELS).fill(255));
    expect(Array.from(await matter.finish(pendingSecond))).toEqual(Array(MODEL_PIXELS).fill(0));
  });

  it('reuses the first model input for the third frame once the first is finished', async () => {
    const segmenter = new FakeSegmenter();
    const matter = new FrameMatter(segmenter, SETTINGS);
    const pendingFirst = matter.start(small(16), undefined);
    matter.start(small(126), undefined);
    segmenter.answer(0, 0.5);
    await matter.finish(pendingFirst);
    matter.start(small(235), undefined);
    expect(segmenter.inputs[2]).toBe(segmenter.inputs[0]);
  });

  it('smooths each mask against the one finished before it', async () => {
    const segmenter = new FakeSegmenter();
    const matter = new FrameMatter(segmenter, { ...SETTINGS, smoothing: DEFAULT_SMOOTHING });
    const first = matter.start(small(126), undefined);
    const second = matter.start(small(126), undefined);
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
    const pending = matter.start(small(126), undefined);
    await new Promise((resolve) => setImmediate(resolve));
    await expect(matter.finish(pending)).rejects.toThrow('model failed');
  });
});
