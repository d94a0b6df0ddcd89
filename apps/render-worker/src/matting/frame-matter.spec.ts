import { FrameMatter, type FrameMatterSettings, type PendingMatte } from './frame-matter';
import { DEFAULT_MATTE } from './matte-builder';
import type { MattingModelSpec, Segmenter } from './matting-model';
import { DEFAULT_TRACKING, RegionTracker, type TrackingSettings } from './region-tracker';
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
  tracking: null,
  hold: null,
  stillObjects: null,
  plate: null,
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

  describe('tracking the person', () => {
    // A 32x16 grid; the decoder's side frame (the crop source) at twice that.
    const TRACK_SPEC: MattingModelSpec = { ...SPEC, width: 32, height: 16 };
    const SIDE = { width: 64, height: 32 };
    const TRACKED: FrameMatterSettings = {
      ...SETTINGS,
      width: SIDE.width,
      height: SIDE.height,
      tracking: { settings: { ...DEFAULT_TRACKING, checkEvery: 4 }, sideSize: SIDE },
      depth: 4,
    };

    // A model limited by resolution: it sees a bright pixel as the person (1) only where its whole
    // 3x3 neighbourhood is bright, and answers `faint` for thinner bright parts.
    class SharpSegmenter implements Segmenter {
      readonly runs: number[] = [];

      constructor(
        private readonly faint = 0.3,
        readonly spec: MattingModelSpec = TRACK_SPEC,
      ) {}

      segment(input: Float32Array): Promise<Float32Array> {
        const { width, height } = this.spec;
        const bright = (x: number, y: number) => x >= 0 && y >= 0 && x < width && y < height && input[(y * width + x) * 3] > 0.5;
        const mask = new Float32Array(width * height);
        let count = 0;
        for (let y = 0; y < height; y++) {
          for (let x = 0; x < width; x++) {
            if (!bright(x, y)) continue;
            count++;
            let solid = true;
            for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) solid &&= bright(x + dx, y + dy);
            mask[y * width + x] = solid ? 1 : this.faint;
          }
        }
        this.runs.push(count);
        return Promise.resolve(mask);
      }
    }

    // The scene at side-frame resolution: people as bright boxes (side pixels, x1/y1 exclusive) on
    // a dark background; the decoder's two outputs made from it. 17, not 16: a pixel half over a
    // person's edge is then 126, not 125.5, which rounding could send either side of the model's
    // 0.5 threshold.
    function frames(...people: [number, number, number, number][]): { small: Buffer; side: Uint8Array } {
      const inside = (x: number, y: number) => people.some(([x0, y0, x1, y1]) => x >= x0 && x < x1 && y >= y0 && y < y1);
      const side = new Uint8Array((SIDE.width * SIDE.height * 3) / 2).fill(128);
      for (let y = 0; y < SIDE.height; y++) for (let x = 0; x < SIDE.width; x++) side[y * SIDE.width + x] = inside(x, y) ? 235 : 17;
      const gridPixels = TRACK_SPEC.width * TRACK_SPEC.height;
      const small = Buffer.alloc(gridPixels * 3, 128);
      // Each grid pixel is the mean of its 2x2 side pixels.
      for (let y = 0; y < TRACK_SPEC.height; y++) {
        for (let x = 0; x < TRACK_SPEC.width; x++) {
          let total = 0;
          for (const [dx, dy] of [[0, 0], [1, 0], [0, 1], [1, 1]]) total += side[(2 * y + dy) * SIDE.width + 2 * x + dx];
          small[y * TRACK_SPEC.width + x] = Math.round(total / 4);
        }
      }
      return { small, side };
    }

    // A person 2 grid pixels wide: the whole frame shows them only faintly.
    const PERSON: [number, number, number, number] = [20, 10, 24, 22];
    const gridAt = (x: number, y: number) => y * TRACK_SPEC.width + x;

    it('looks again at a crop where the whole frame shows a small person faintly, and uses that mask', async () => {
      const whole = new FrameMatter(new SharpSegmenter(), { ...TRACKED, tracking: null });
      const untracked = await whole.finish(whole.start(frames(PERSON).small, frames(PERSON).side));
      const segmenter = new SharpSegmenter();
      const matter = new FrameMatter(segmenter, TRACKED);
      const { small, side } = frames(PERSON);
      const alpha = await matter.finish(matter.start(small, side));
      // The first frame: the whole frame, four tiles (a fresh frame is always searched), then the crop,
      // where the person is larger.
      expect(segmenter.runs).toHaveLength(6);
      expect(segmenter.runs[5]).toBeGreaterThan(2 * segmenter.runs[0]);
      // The person's middle is opaque only with the closer look.
      expect(untracked[gridAt(10, 8)]).toBe(0);
      expect(alpha[gridAt(10, 8)]).toBe(255);
      expect(alpha[gridAt(2, 2)]).toBe(0);
      expect(alpha[gridAt(30, 14)]).toBe(0);
    });

    // A matter whose crops go to a square segmenter of their own (decision 0070).
    function withSquareCrops(faint: number): { frameSegmenter: SharpSegmenter; cropSegmenter: SharpSegmenter; matter: FrameMatter } {
      const frameSegmenter = new SharpSegmenter(faint);
      const cropSegmenter = new SharpSegmenter(faint, { ...TRACK_SPEC, width: 32, height: 32 });
      const tracking = { ...(TRACKED.tracking as NonNullable<FrameMatterSettings['tracking']>), cropSegmenter };
      return { frameSegmenter, cropSegmenter, matter: new FrameMatter(frameSegmenter, { ...TRACKED, tracking }) };
    }

    it("runs tiles and crops with the crop segmenter, at its own size, and whole frames with the frame's", async () => {
      const { frameSegmenter, cropSegmenter, matter } = withSquareCrops(0);
      const { small, side } = frames(PERSON);
      const alpha = await matter.finish(matter.start(small, side));
      // The whole frame, then four tiles and the crop around what they found.
      expect(frameSegmenter.runs).toHaveLength(1);
      expect(cropSegmenter.runs).toHaveLength(5);
      expect(alpha[gridAt(10, 8)]).toBeGreaterThan(128);
      expect(alpha[gridAt(2, 2)]).toBe(0);
    });

    it("looks closer at someone wider than tall with the frame's own segmenter", async () => {
      const { frameSegmenter, cropSegmenter, matter } = withSquareCrops(0.3);
      // Lying down: 16 side pixels wide, 4 high.
      const { small, side } = frames([16, 20, 32, 24]);
      await matter.finish(matter.start(small, side));
      // The whole frame and then the closer look, both the frame's; the fresh frame's four tiles the crop segmenter's.
      expect(frameSegmenter.runs).toHaveLength(2);
      expect(cropSegmenter.runs).toHaveLength(4);
    });

    it('searches the frame in four tiles where the whole frame shows nobody, and looks closer where they find someone', async () => {
      const segmenter = new SharpSegmenter(0);
      const matter = new FrameMatter(segmenter, TRACKED);
      const { small, side } = frames(PERSON);
      const alpha = await matter.finish(matter.start(small, side));
      // The whole frame, four tiles, then the crop around what they found.
      expect(segmenter.runs).toHaveLength(6);
      expect(alpha[gridAt(10, 8)]).toBe(255);
      expect(alpha[gridAt(2, 2)]).toBe(0);
    });

    it('searches the first frame in tiles even where the whole frame shows someone, and finds who it missed', async () => {
      const segmenter = new SharpSegmenter(0);
      const matter = new FrameMatter(segmenter, TRACKED);
      // A larger person the whole frame sees, and the small one it misses.
      const { small, side } = frames(PERSON, [44, 8, 52, 24]);
      const alpha = await matter.finish(matter.start(small, side));
      // The whole frame, four tiles, then a closer look at each.
      expect(segmenter.runs).toHaveLength(7);
      expect(alpha[gridAt(10, 8)]).toBe(255);
      expect(alpha[gridAt(24, 8)]).toBe(255);
      expect(alpha[gridAt(2, 2)]).toBe(0);
    });

    it('keeps what the tiles answer weakly (a textured wall, seen closer) out of the regions and the matte', async () => {
      // The model, zoomed into each tile, also answers 0.4 over the tile's upper left quarter.
      class WallSegmenter extends SharpSegmenter {
        override segment(input: Float32Array): Promise<Float32Array> {
          const run = this.runs.length;
          return super.segment(input).then((mask) => {
            if (run >= 1 && run <= 4) for (let y = 0; y < TRACK_SPEC.height / 2; y++) mask.fill(0.4, y * TRACK_SPEC.width, y * TRACK_SPEC.width + TRACK_SPEC.width / 2);
            return mask;
          });
        }
      }
      const segmenter = new WallSegmenter(0);
      const matter = new FrameMatter(segmenter, TRACKED);
      const { small, side } = frames(PERSON);
      const alpha = await matter.finish(matter.start(small, side));
      // The whole frame, four tiles, then the crop around the person alone.
      expect(segmenter.runs).toHaveLength(6);
      expect(alpha[gridAt(10, 8)]).toBe(255);
      for (const [x, y] of [[2, 2], [20, 2], [2, 10], [28, 10]]) expect(alpha[gridAt(x, y)]).toBe(0);
    });

    // Three frames started before any is finished: none has a region, and only the first searches.
    async function firstThreeFrames(segmenter: SharpSegmenter, ...people: [number, number, number, number][]): Promise<Uint8Array[]> {
      const matter = new FrameMatter(segmenter, TRACKED);
      const { small, side } = frames(...people);
      const pending = [0, 1, 2].map(() => matter.start(small, side));
      const alphas: Uint8Array[] = [];
      for (const frame of pending) alphas.push(await matter.finish(frame));
      return alphas;
    }

    it('has frames started while a search is under way look where it found someone', async () => {
      const segmenter = new SharpSegmenter(0);
      for (const alpha of await firstThreeFrames(segmenter, PERSON)) expect(alpha[gridAt(10, 8)]).toBe(255);
      // Three whole frames, four tiles, three crops.
      expect(segmenter.runs).toHaveLength(3 + 4 + 3);
    });

    it('has frames started while a search is under way add whom it found to whom their own whole frame shows', async () => {
      const segmenter = new SharpSegmenter(0);
      // Each whole frame shows the larger person only; the first frame's search finds the small one.
      for (const alpha of await firstThreeFrames(segmenter, PERSON, [44, 8, 52, 24])) {
        expect(alpha[gridAt(10, 8)]).toBe(255);
        expect(alpha[gridAt(24, 8)]).toBe(255);
        expect(alpha[gridAt(2, 2)]).toBe(0);
      }
      // Three whole frames, four tiles, two crops a frame.
      expect(segmenter.runs).toHaveLength(3 + 4 + 3 * 2);
    });

    it('has them do so when their own whole frame comes back only after the search has ended', async () => {
      // The model answers the second and third frames' whole frames last, after the first frame's tiles.
      class LateSegmenter extends SharpSegmenter {
        override segment(input: Float32Array): Promise<Float32Array> {
          const run = this.runs.length;
          const mask = super.segment(input);
          return run === 1 || run === 2 ? mask.then((answer) => new Promise((resolve) => setTimeout(() => resolve(answer), 20))) : mask;
        }
      }
      const segmenter = new LateSegmenter(0);
      for (const alpha of await firstThreeFrames(segmenter, PERSON, [44, 8, 52, 24])) {
        expect(alpha[gridAt(10, 8)]).toBe(255);
        expect(alpha[gridAt(24, 8)]).toBe(255);
      }
      expect(segmenter.runs).toHaveLength(3 + 4 + 3 * 2);
    });

    it('has a frame between a search and a cut add whom the search found, though the cut started before it looked', async () => {
      // The model answers the second frame's whole frame last, after the first frame has finished.
      class LateSecondSegmenter extends SharpSegmenter {
        override segment(input: Float32Array): Promise<Float32Array> {
          const run = this.runs.length;
          const mask = super.segment(input);
          return run === 1 ? mask.then((answer) => new Promise((resolve) => setTimeout(() => resolve(answer), 30))) : mask;
        }
      }
      const segmenter = new LateSecondSegmenter(0);
      const matter = new FrameMatter(segmenter, TRACKED);
      const { small, side } = frames(PERSON, [44, 8, 52, 24]);
      const first = matter.start(small, side);
      const second = matter.start(small, side);
      await matter.finish(first);
      // A cut (everything bright), started while the second frame waits for its whole frame.
      const cut = frames([0, 0, 64, 32]);
      const third = matter.start(cut.small, cut.side);
      const alpha = await matter.finish(second);
      expect(alpha[gridAt(10, 8)]).toBe(255);
      expect(alpha[gridAt(24, 8)]).toBe(255);
      await matter.finish(third);
    });

    it('searches an empty scene only every searchEvery frames', async () => {
      const segmenter = new SharpSegmenter(0);
      const matter = new FrameMatter(segmenter, { ...TRACKED, tracking: { settings: { ...DEFAULT_TRACKING, searchEvery: 3 }, sideSize: SIDE } });
      const { small, side } = frames();
      for (let frame = 0; frame < 7; frame++) await matter.finish(matter.start(small, side));
      // Frames 0, 3 and 6: five runs each; the rest one.
      expect(segmenter.runs).toHaveLength(3 * 5 + 4);
    });

    it('runs the model once per frame on the crop once a finished frame shows where the person is', async () => {
      const segmenter = new SharpSegmenter();
      const matter = new FrameMatter(segmenter, TRACKED);
      const { small, side } = frames(PERSON);
      await matter.finish(matter.start(small, side));
      const runs = segmenter.runs.length;
      const alpha = await matter.finish(matter.start(small, side));
      expect(segmenter.runs.length - runs).toBe(1);
      expect(segmenter.runs.at(-1)).toBeGreaterThan(2 * segmenter.runs[0]);
      expect(alpha[gridAt(10, 8)]).toBe(255);
    });

    it('crops each of two people standing apart, one model run each', async () => {
      const segmenter = new SharpSegmenter();
      const matter = new FrameMatter(segmenter, TRACKED);
      const { small, side } = frames([6, 12, 10, 20], [54, 12, 58, 20]);
      const first = await matter.finish(matter.start(small, side));
      // The whole frame, four tiles, then a closer look at each.
      expect(segmenter.runs).toHaveLength(7);
      const alpha = await matter.finish(matter.start(small, side));
      expect(segmenter.runs).toHaveLength(9);
      for (const frame of [first, alpha]) {
        expect(frame[gridAt(3, 8)]).toBe(255);
        expect(frame[gridAt(28, 8)]).toBe(255);
        expect(frame[gridAt(16, 8)]).toBe(0);
      }
    });

    it('finds someone entering outside the region on the next frame, from the movement there', async () => {
      const segmenter = new SharpSegmenter();
      const matter = new FrameMatter(segmenter, TRACKED);
      const first = frames(PERSON);
      await matter.finish(matter.start(first.small, first.side));
      // A second, larger person enters at the right edge, outside the region.
      const both = frames(PERSON, [52, 6, 64, 26]);
      const alpha = await matter.finish(matter.start(both.small, both.side));
      // The crop, and the whole frame because the picture moved outside it.
      expect(segmenter.runs).toHaveLength(6 + 2);
      expect(alpha[gridAt(29, 8)]).toBe(255);
      expect(alpha[gridAt(10, 8)]).toBe(255);
    });

    it('finds someone entering outside the region on the periodic whole-frame check where nothing moved there', async () => {
      const segmenter = new SharpSegmenter();
      const matter = new FrameMatter(segmenter, { ...TRACKED, tracking: { settings: { ...DEFAULT_TRACKING, checkEvery: 4, motionPixels: Infinity }, sideSize: SIDE } });
      const first = frames(PERSON);
      await matter.finish(matter.start(first.small, first.side));
      const both = frames(PERSON, [52, 6, 64, 26]);
      const alphas: Uint8Array[] = [];
      for (let frame = 2; frame <= 4; frame++) alphas.push(await matter.finish(matter.start(both.small, both.side)));
      // Cropped frames miss them; the check frame (frame 4, a multiple of checkEvery) runs twice and sees them.
      expect(alphas[0][gridAt(29, 8)]).toBe(0);
      expect(alphas[2][gridAt(29, 8)]).toBe(255);
      expect(alphas[2][gridAt(10, 8)]).toBe(255);
      expect(segmenter.runs).toHaveLength(6 + 2 + 2);
    });

    // A person standing for two frames, then taller, their head rising to side row `headAt`: above the
    // region planned from the last frame. Thin parts are answered above the touch level, so a person
    // cut by the crop's border reaches it. The new runs and the taller frame's alpha.
    async function headRisesAbove(headAt: number, settings: TrackingSettings): Promise<{ runs: number[]; alpha: Uint8Array }> {
      const segmenter = new SharpSegmenter(0.6);
      const matter = new FrameMatter(segmenter, { ...TRACKED, tracking: { settings: { ...settings, motionPixels: Infinity }, sideSize: SIDE } });
      const standing = frames([16, 14, 26, 26]);
      await matter.finish(matter.start(standing.small, standing.side));
      await matter.finish(matter.start(standing.small, standing.side));
      const before = segmenter.runs.length;
      const taller = frames([16, headAt, 26, 26]);
      const alpha = await matter.finish(matter.start(taller.small, taller.side));
      return { runs: segmenter.runs.slice(before), alpha };
    }

    it('widens a crop that cuts its person and runs the model again, so a head entering above the region comes out whole', async () => {
      const { runs, alpha } = await headRisesAbove(6, { ...DEFAULT_TRACKING, minZoom: 1 });
      expect(runs).toHaveLength(2);
      expect(alpha[gridAt(10, 3)]).toBeGreaterThanOrEqual(128);
      expect(alpha[gridAt(10, 10)]).toBe(255);
    });

    it('uses the whole frame where a widened crop would enlarge the picture too little', async () => {
      const { runs, alpha } = await headRisesAbove(2, DEFAULT_TRACKING);
      // The crop, then the whole frame (not enlarged: the person's 5x12 grid pixels), which shows the
      // person's core whole.
      expect(runs).toEqual([expect.any(Number), 5 * 12]);
      expect(alpha[gridAt(10, 3)]).toBeGreaterThanOrEqual(128);
    });

    it('segments the whole frame after a cut', async () => {
      const segmenter = new SharpSegmenter();
      const matter = new FrameMatter(segmenter, TRACKED);
      const { small, side } = frames(PERSON);
      await matter.finish(matter.start(small, side));
      await matter.finish(matter.start(small, side));
      // Everything bright: nobody small to look at closer, and the whole frame is what the model saw.
      const cut = frames([0, 0, 64, 32]);
      const runs = segmenter.runs.length;
      const alpha = await matter.finish(matter.start(cut.small, cut.side));
      expect(segmenter.runs.length - runs).toBe(1);
      expect(segmenter.runs.at(-1)).toBe(TRACK_SPEC.width * TRACK_SPEC.height);
      expect(alpha[gridAt(2, 2)]).toBe(255);
    });

    it('gives the same mattes however late the model answers, as the pipeline drives it (decision 0100)', async () => {
      // Answers after a pseudo-random 0-4 ms, from a seed: the runs' order on the model's thread
      // differs from run to run, as on a busy machine.
      class JitterSegmenter extends SharpSegmenter {
        constructor(private seed: number) {
          super(0);
        }

        override segment(input: Float32Array): Promise<Float32Array> {
          this.seed = (this.seed * 1103515245 + 12345) % 2 ** 31;
          const delay = this.seed % 5;
          return super.segment(input).then((answer) => new Promise((resolve) => setTimeout(() => resolve(answer), delay)));
        }
      }
      // Nobody; a person walking in from the left edge; a second entering at the right; both gone;
      // a small one appearing in the middle.
      // Thin people too (2 grid pixels: whole frames miss them, tiles and crops find them), coming and
      // going every few frames, so whole frames, searches and crops all take turns.
      const thin = (x: number): [number, number, number, number] => [x, 10, x + 4, 22];
      const scenes: [number, number, number, number][][] = [
        ...Array.from({ length: 3 }, () => []),
        ...Array.from({ length: 8 }, (_, i): [number, number, number, number][] => [[Math.max(0, 3 * i - 4), 10, 3 * i, 22]]),
        ...Array.from({ length: 6 }, (_, i): [number, number, number, number][] => [[20, 10, 24, 22], [Math.max(40, 62 - 4 * i), 6, 64, 26]]),
        ...Array.from({ length: 4 }, () => []),
        ...Array.from({ length: 24 }, (_, i): [number, number, number, number][] => (i % 7 < 4 ? [thin(6 + 2 * i)] : i % 7 === 4 ? [] : [thin(50 - i), [8, 4, 16, 28]])),
        ...Array.from({ length: 8 }, (_, i): [number, number, number, number][] => [[30 + (i % 3), 12, 33 + (i % 3), 20]]),
      ];
      async function matteAll(segmenter: Segmenter): Promise<Uint8Array[]> {
        const matter = new FrameMatter(segmenter, TRACKED);
        const inFlight: PendingMatte[] = [];
        const alphas: Uint8Array[] = [];
        for (const people of scenes) {
          const { small, side } = frames(...people);
          inFlight.push(matter.start(small, side));
          if (inFlight.length >= TRACKED.depth) alphas.push(Uint8Array.from(await matter.finish(inFlight.shift() as PendingMatte)));
        }
        for (const pending of inFlight) alphas.push(Uint8Array.from(await matter.finish(pending)));
        return alphas;
      }
      const prompt = await matteAll(new SharpSegmenter(0));
      for (const seed of [1, 2, 3]) expect(await matteAll(new JitterSegmenter(seed))).toEqual(prompt);
    });

    it('fails the next frame with an error the tracker met observing a finished one', async () => {
      const observe = jest.spyOn(RegionTracker.prototype, 'observe').mockImplementationOnce(() => {
        throw new Error('tracker broke');
      });
      try {
        const matter = new FrameMatter(new SharpSegmenter(), TRACKED);
        const { small, side } = frames(PERSON);
        await matter.finish(matter.start(small, side));
        await expect(matter.finish(matter.start(small, side))).rejects.toThrow('tracker broke');
      } finally {
        observe.mockRestore();
      }
    });

    it('segments only whole frames without a side frame', async () => {
      const segmenter = new SharpSegmenter();
      const matter = new FrameMatter(segmenter, TRACKED);
      const { small } = frames(PERSON);
      await matter.finish(matter.start(small, undefined));
      await matter.finish(matter.start(small, undefined));
      expect(segmenter.runs).toHaveLength(2);
    });
  });
});
