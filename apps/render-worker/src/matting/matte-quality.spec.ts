import { MatteQualityMeter } from './matte-quality';

// A 4x4 grid over an 8x8 matte: each grid cell's sample is one matte pixel of its 2x2 block.
const GRID = { width: 4, height: 4 };
const ALPHA = { width: 8, height: 8 };
const STILL = new Float32Array(16).fill(0.5);

describe('MatteQualityMeter', () => {
  it('counts the frames whose matte shows a person, and none where it is empty', () => {
    const meter = new MatteQualityMeter(GRID, ALPHA);
    meter.observe(new Uint8Array(64), STILL);
    meter.observe(new Uint8Array(64).fill(255, 0, 16), STILL);
    meter.observe(new Uint8Array(64).fill(127), STILL);
    expect(meter.figures).toMatchObject({ frames: 3, framesWithPerson: 1 });
  });

  it('measures flicker as the mean alpha change where the picture stood still, not where it moved', () => {
    const meter = new MatteQualityMeter(GRID, ALPHA);
    meter.observe(new Uint8Array(64), STILL);
    // Every sample's alpha rises by 51 (0.2); half the grid's picture moved with it.
    const moved = Float32Array.from(STILL, (luma, g) => (g < 8 ? luma + 0.2 : luma));
    meter.observe(new Uint8Array(64).fill(51), moved);
    expect(meter.figures.flicker).toBeCloseTo(0.2, 6);
    // A matte that holds still where the picture does: no flicker added.
    meter.observe(new Uint8Array(64).fill(51), moved);
    expect(meter.figures.flicker).toBeCloseTo(0.2 / 3, 6);
  });

  it('reads no flicker from a single frame', () => {
    const meter = new MatteQualityMeter(GRID, ALPHA);
    meter.observe(new Uint8Array(64).fill(200), STILL);
    expect(meter.figures).toEqual({ frames: 1, framesWithPerson: 1, flicker: 0, stillSamples: 0 });
  });

  it("leaves a segment's warm-up out, and counts the change from its last frame to the first delivered", () => {
    const meter = new MatteQualityMeter(GRID, ALPHA, 2);
    meter.observe(new Uint8Array(64).fill(255), STILL);
    meter.observe(new Uint8Array(64), STILL);
    meter.observe(new Uint8Array(64).fill(51), STILL);
    expect(meter.figures.frames).toBe(1);
    expect(meter.figures.framesWithPerson).toBe(0);
    expect(meter.figures.flicker).toBeCloseTo(0.2, 6);
  });
});
