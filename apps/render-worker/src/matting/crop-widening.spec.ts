import { touchedSides, widenedRegion } from './crop-widening';

const GRID = { width: 16, height: 8 };

function maskWith(...pixels: [number, number][]): Float32Array {
  const mask = new Float32Array(GRID.width * GRID.height);
  for (const [x, y] of pixels) mask[y * GRID.width + x] = 1;
  return mask;
}

describe('touchedSides', () => {
  const inside = { x: 4, y: 2, width: 8, height: 4 };

  it('finds none where the person lies within the crop', () => {
    expect(touchedSides(maskWith([5, 3], [8, 4]), GRID, inside, GRID, 0.5)).toBeNull();
  });

  it('names each border the mask reaches', () => {
    expect(touchedSides(maskWith([7, 0]), GRID, inside, GRID, 0.5)).toEqual({ left: false, right: false, top: true, bottom: false });
    expect(touchedSides(maskWith([0, 3], [15, 7]), GRID, inside, GRID, 0.5)).toEqual({ left: true, right: true, top: false, bottom: true });
  });

  it("ignores a border that is the picture's own edge: nothing lies beyond it", () => {
    const atBottomLeft = { x: 0, y: 4, width: 8, height: 4 };
    expect(touchedSides(maskWith([0, 3], [5, 7]), GRID, atBottomLeft, GRID, 0.5)).toBeNull();
    expect(touchedSides(maskWith([3, 0]), GRID, atBottomLeft, GRID, 0.5)).toEqual({ left: false, right: false, top: true, bottom: false });
  });

  it("reads a crop mask of the crop model's own size, and the region's sides against the grid", () => {
    const crop = { width: 4, height: 4 };
    const reachingRight = new Float32Array(16);
    reachingRight[1 * 4 + 3] = 1;
    expect(touchedSides(reachingRight, crop, inside, GRID, 0.5)).toEqual({ left: false, right: true, top: false, bottom: false });
    expect(touchedSides(reachingRight, crop, { x: 8, y: 2, width: 8, height: 4 }, GRID, 0.5)).toBeNull();
  });

  it('ignores answers below the touch level', () => {
    const faint = new Float32Array(GRID.width * GRID.height).fill(0.4);
    expect(touchedSides(faint, GRID, inside, GRID, 0.5)).toBeNull();
  });
});

describe('widenedRegion', () => {
  const region = { x: 4, y: 2, width: 8, height: 4 };
  const none = { left: false, right: false, top: false, bottom: false };

  it('keeps a wide region wide: it is seen by the same model variant', () => {
    expect(widenedRegion({ ...region, wide: true }, { ...none, top: true }, { width: 32, height: 16 }, 1.5, 1.25)).toEqual({ x: 2, y: 0, width: 12, height: 6, wide: true });
  });

  it('grows towards the touched side only, keeping the grid shape', () => {
    expect(widenedRegion(region, { ...none, top: true }, { width: 32, height: 16 }, 1.5, 1.25)).toEqual({ x: 2, y: 0, width: 12, height: 6 });
    expect(widenedRegion({ x: 10, y: 4, width: 8, height: 4 }, { ...none, left: true, bottom: true }, { width: 32, height: 16 }, 1.5, 1.25)).toEqual({ x: 6, y: 4, width: 12, height: 6 });
  });

  it('stays within the picture', () => {
    const widened = widenedRegion({ x: 1, y: 1, width: 8, height: 4 }, { ...none, left: true, top: true }, { width: 32, height: 16 }, 1.5, 1.25);
    expect(widened).toEqual({ x: 0, y: 0, width: 12, height: 6 });
  });

  it('gives way to the whole frame where the crop would enlarge too little', () => {
    expect(widenedRegion({ x: 3, y: 2, width: 10, height: 5 }, { ...none, top: true }, GRID, 1.5, 1.25)).toBeNull();
  });
});
