import { ShiftSearch, type ShiftReference } from './shift-search';

const GRID = { width: 64, height: 36 };

// A smooth texture, as a wall or a floor with some pattern, seen from `dx` grid pixels to the right.
function scene(dx: number): Float32Array {
  return Float32Array.from({ length: GRID.width * GRID.height }, (_, g) => {
    const x = (g % GRID.width) + dx;
    const y = Math.floor(g / GRID.width);
    return 0.5 + 0.2 * Math.sin(0.5 * x + Math.sin(0.3 * y)) + 0.15 * Math.sin(0.4 * y + 0.2 * x);
  });
}

function reference(luma: Float32Array, usable: (g: number) => boolean = () => true): ShiftReference {
  return { luma, usable };
}

describe('ShiftSearch', () => {
  const search = new ShiftSearch(GRID, 1);

  it('finds the same picture in place', () => {
    expect(search.judge(scene(0), reference(scene(0)))).toBe('in place');
  });

  it('finds a picture shifted by a grid pixel or two moved', () => {
    expect(search.judge(scene(1), reference(scene(0)))).toBe('moved');
    expect(search.judge(scene(-2), reference(scene(0)))).toBe('moved');
  });

  it("takes a change of the whole picture's exposure on a wall's light falloff for no movement, and a shift at another exposure for one", () => {
    // Light falling off across the wall, with a faint pattern; then brighter or darker by 6 %.
    const falloff = (dx: number, gain: number): Float32Array =>
      Float32Array.from({ length: GRID.width * GRID.height }, (_, g) => {
        const x = (g % GRID.width) + dx;
        const y = Math.floor(g / GRID.width);
        return gain * (0.15 + 0.9 * (x / GRID.width) + 0.03 * Math.sin(0.9 * x + 0.7 * y));
      });
    expect(search.judge(falloff(0, 1.06), reference(falloff(0, 1)))).toBe('in place');
    expect(search.judge(falloff(0, 0.94), reference(falloff(0, 1)))).toBe('in place');
    expect(search.judge(scene(1).map((value) => 1.06 * value), reference(scene(0)))).toBe('moved');
  });

  it('tells nothing of a flat picture, or where no cell may be judged', () => {
    const flat = new Float32Array(GRID.width * GRID.height).fill(0.4);
    expect(search.judge(flat, reference(flat))).toBe('unknown');
    expect(search.judge(scene(1), reference(scene(0), () => false))).toBe('unknown');
  });

  it('judges every other row and column at step 2, with the same verdicts', () => {
    const sparse = new ShiftSearch(GRID, 2);
    expect(sparse.judge(scene(0), reference(scene(0)))).toBe('in place');
    expect(sparse.judge(scene(1), reference(scene(0)))).toBe('moved');
  });

  it('gives the same verdicts judged on a sample of a large textured picture', () => {
    const large = { width: 256, height: 256 };
    const wall = (dx: number): Float32Array =>
      Float32Array.from({ length: large.width * large.height }, (_, g) => {
        const x = (g % large.width) + dx;
        const y = Math.floor(g / large.width);
        return 0.5 + 0.2 * Math.sin(0.9 * x + Math.sin(0.7 * y)) + 0.15 * Math.sin(0.8 * y + 0.3 * x);
      });
    const dense = new ShiftSearch(large, 1);
    expect(dense.judge(wall(0), reference(wall(0)))).toBe('in place');
    expect(dense.judge(wall(1), reference(wall(0)))).toBe('moved');
    expect(dense.judge(wall(0), reference(wall(0), (g) => g % large.width < 40))).toBe('in place');
    expect(dense.judge(wall(-1), reference(wall(0), (g) => g % large.width < 40))).toBe('moved');
  });
});
