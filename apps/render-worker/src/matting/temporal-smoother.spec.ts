import { DEFAULT_SMOOTHING, TemporalSmoother } from './temporal-smoother';

const { stillRate, stillBelow, movingFrom } = DEFAULT_SMOOTHING;

const filled = (value: number, pixels = 64) => new Float32Array(pixels).fill(value);

// Smooths one frame and returns the result (the smoother works in place).
function smooth(smoother: TemporalSmoother, mask: Float32Array, luma: Float32Array): number[] {
  smoother.smooth(mask, luma);
  return Array.from(mask);
}

describe('TemporalSmoother', () => {
  it('passes the first frame unchanged', () => {
    const smoother = new TemporalSmoother(8, 8);
    const mask = Float32Array.from({ length: 64 }, (_, i) => (i % 3) / 2);
    expect(smooth(smoother, mask.slice(), filled(0.5))).toEqual(Array.from(mask));
  });

  it('damps a flickering mask on a still picture: each swing shrinks to stillRate of the raw one', () => {
    const smoother = new TemporalSmoother(8, 8);
    const still = filled(0.5);
    let previous = smooth(smoother, filled(0.4), still)[0];
    for (const raw of [0.6, 0.4, 0.6, 0.4]) {
      const value = smooth(smoother, filled(raw), still)[0];
      expect(value - previous).toBeCloseTo(stillRate * (raw - previous), 6);
      previous = value;
    }
    // The flicker settles near the middle instead of swinging by 0.2.
    expect(previous).toBeGreaterThan(0.45);
    expect(previous).toBeLessThan(0.5);
  });

  it('counts changes below stillBelow as still', () => {
    const smoother = new TemporalSmoother(8, 8);
    smooth(smoother, filled(0.4), filled(0.5));
    smooth(smoother, filled(0.6), filled(0.5 + stillBelow * 0.9)).forEach((value) => expect(value).toBeCloseTo(0.4 + stillRate * 0.2, 6));
  });

  it('takes the new mask as it is where the picture moved, and around it', () => {
    const smoother = new TemporalSmoother(8, 8);
    smooth(smoother, filled(0.4), filled(0.5));
    const moved = filled(0.5);
    moved[3 * 8 + 3] = 0.9; // one pixel at (3, 3); far below a cut on average
    const mask = smooth(smoother, filled(0.6), moved);
    for (let y = 0; y < 8; y++) {
      for (let x = 0; x < 8; x++) {
        const near = Math.abs(x - 3) <= 1 && Math.abs(y - 3) <= 1;
        expect(mask[y * 8 + x]).toBeCloseTo(near ? 0.6 : 0.4 + stillRate * 0.2, 6);
      }
    }
  });

  it('lets a moving pixel at the corner carry its neighbours without reading outside the plane', () => {
    const smoother = new TemporalSmoother(4, 4);
    smooth(smoother, filled(0, 16), filled(0.5, 16));
    const moved = filled(0.5, 16);
    moved[15] = 1;
    const mask = smooth(smoother, filled(1, 16), moved);
    expect([mask[10], mask[11], mask[14], mask[15]]).toEqual([1, 1, 1, 1]);
    expect(mask[0]).toBeCloseTo(stillRate, 6);
    expect(mask[9]).toBeCloseTo(stillRate, 6);
  });

  it('blends between the still and the moving rate for changes between stillBelow and movingFrom', () => {
    const smoother = new TemporalSmoother(8, 8);
    smooth(smoother, filled(0), filled(0.5));
    const halfway = (stillBelow + movingFrom) / 2;
    smooth(smoother, filled(1), filled(0.5 + halfway)).forEach((value) => expect(value).toBeCloseTo(stillRate + (1 - stillRate) / 2, 4));
  });

  it('resets to the new mask everywhere at a cut', () => {
    const smoother = new TemporalSmoother(8, 8);
    smooth(smoother, filled(0.2), filled(0.3));
    // The whole picture changes by 0.25 on average: more than cutFrom (0.2).
    expect(smooth(smoother, filled(0.9), filled(0.55))).toEqual(Array.from(filled(0.9)));
  });

  it('smooths again from the mask taken at a cut', () => {
    const smoother = new TemporalSmoother(8, 8);
    smooth(smoother, filled(0.2), filled(0.3));
    smooth(smoother, filled(0.9), filled(0.55));
    smooth(smoother, filled(0.5), filled(0.55)).forEach((value) => expect(value).toBeCloseTo(0.9 + stillRate * (0.5 - 0.9), 6));
  });

  it('follows its settings: a still rate of 1 turns smoothing off', () => {
    const smoother = new TemporalSmoother(8, 8, { ...DEFAULT_SMOOTHING, stillRate: 1 });
    smooth(smoother, filled(0.4), filled(0.5));
    expect(smooth(smoother, filled(0.6), filled(0.5))).toEqual(Array.from(filled(0.6)));
  });
});
