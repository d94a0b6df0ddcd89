import { segmentPlan, segmentTimes } from './segment-plan';

describe('segmentPlan', () => {
  it('cuts at the keyframe nearest each segment length, and mattes each segment from its warm-up on', () => {
    // 60 s at 30 fps, a keyframe every 2 s.
    const keyframes = Array.from({ length: 30 }, (_, i) => i * 60);
    const plan = segmentPlan({ frames: 1800, fps: 30, keyframes, segmentSeconds: 15, warmupSeconds: 3 });
    expect(plan.map(({ from, to }) => [from, to])).toEqual([
      [0, 420],
      [420, 840],
      [840, 1260],
      [1260, 1800],
    ]);
    expect(plan[1]).toEqual({ index: 1, cutFrom: 300, matteFrom: 330, from: 420, to: 840 });
    expect(plan[0]).toMatchObject({ cutFrom: 0, matteFrom: 0 });
  });

  it('snaps within a quarter segment, keeps the length where no keyframe is near, and cuts from the last keyframe before the warm-up', () => {
    const plan = segmentPlan({ frames: 900, fps: 30, keyframes: [0, 250, 500, 750], segmentSeconds: 10, warmupSeconds: 2 });
    expect(plan.map(({ from, to }) => [from, to])).toEqual([
      [0, 250],
      [250, 500],
      [500, 900],
    ]);
    const sparse = segmentPlan({ frames: 900, fps: 30, keyframes: [0], segmentSeconds: 10, warmupSeconds: 2 });
    expect(sparse.map(({ from, to, cutFrom, matteFrom }) => [from, to, cutFrom, matteFrom])).toEqual([
      [0, 300, 0, 0],
      [300, 600, 0, 240],
      [600, 900, 0, 540],
    ]);
  });

  it('gives a short video one segment, and a last piece under half a segment to the one before', () => {
    expect(segmentPlan({ frames: 200, fps: 30, keyframes: [0], segmentSeconds: 10, warmupSeconds: 2 })).toEqual([{ index: 0, cutFrom: 0, matteFrom: 0, from: 0, to: 200 }]);
    expect(segmentPlan({ frames: 400, fps: 30, keyframes: [], segmentSeconds: 10, warmupSeconds: 2 }).map(({ from, to }) => [from, to])).toEqual([[0, 400]]);
  });

  it('refuses a plan without frames or a frame rate', () => {
    expect(() => segmentPlan({ frames: 0, fps: 30, keyframes: [], segmentSeconds: 10, warmupSeconds: 2 })).toThrow(RangeError);
    expect(() => segmentPlan({ frames: 10, fps: 0, keyframes: [], segmentSeconds: 10, warmupSeconds: 2 })).toThrow(RangeError);
  });
});

describe('segmentTimes', () => {
  // 25 fps from 1.4 s, as an MPEG-TS states it.
  const times = Array.from({ length: 150 }, (_, frame) => 1.4 + frame * 0.04);
  const segment = { index: 1, cutFrom: 40, matteFrom: 45, from: 50, to: 100 };

  it("seeks just past the segment's keyframe, and cuts halfway between neighbouring frames", () => {
    const cut = segmentTimes(times, segment);
    expect(cut.seek).toBeCloseTo(3.01, 9);
    expect(cut.start).toBeCloseTo(3.18, 9);
    expect(cut.delivered).toBeCloseTo(3.38, 9);
    expect(cut.end).toBeCloseTo(5.38, 9);
  });

  it('ends the last segment past its last frame, and begins the first before its first frame, read without a seek', () => {
    expect(segmentTimes(times, { ...segment, to: 150 }).end).toBeCloseTo(1.4 + 149 * 0.04 + 1, 9);
    const first = segmentTimes(times, { index: 0, cutFrom: 0, matteFrom: 0, from: 0, to: 50 });
    expect(first.seek).toBeNull();
    expect(first.start).toBeCloseTo(0.4, 9);
    expect(first.end).toBeCloseTo(3.38, 9);
  });
});
