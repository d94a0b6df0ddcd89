import { DEFAULT_PLATE } from './background-plate';
import { FOLLOWS, OWN_TEXTURE, ShadowTexture, UNTOLD } from './shadow-texture';
import { wallTexture as texture } from './testing/wall-texture';

const GRID = { width: 6, height: 6 };
const SETTINGS = { ...DEFAULT_PLATE.shadowTexture, reach: 1 };
// Each grid cell 4x4 picture pixels: a region of 3x3 cells is 144 pixels.
const CELL_PIXELS = 16;

// Ten pixels in each of the cells of the 3x3 block around cell (2, 2), with the plate `plate(n)`
// and the frame `luma(plate, n)`.
function filled(luma: (plate: number, n: number) => number, plate = (n: number) => 120 + texture(n, 1), cellPixels = CELL_PIXELS): ShadowTexture {
  const shadows = new ShadowTexture(GRID, cellPixels, SETTINGS);
  let n = 0;
  for (let y = 1; y <= 3; y++) {
    for (let x = 1; x <= 3; x++) {
      for (let k = 0; k < 10; k++, n++) shadows.add(y * GRID.width + x, luma(plate(n), n), plate(n));
    }
  }
  return shadows;
}

const CENTRE = 2 * GRID.width + 2;

describe('ShadowTexture', () => {
  it("draws the clothes' texture unrelated to the wall's", () => {
    const wall = Array.from({ length: 90 }, (_, n) => texture(n, 1));
    const clothes = Array.from({ length: 90 }, (_, n) => texture(n, 2));
    expect(Math.abs(correlation(wall, clothes))).toBeLessThan(0.15);
  });

  it('holds pixels from the first one added until it is cleared', () => {
    const shadows = new ShadowTexture(GRID, CELL_PIXELS, SETTINGS);
    expect(shadows.holdsPixels).toBe(false);
    shadows.add(CENTRE, 60, 110);
    expect(shadows.holdsPixels).toBe(true);
    shadows.clear();
    expect(shadows.holdsPixels).toBe(false);
  });

  it("takes pixels dimmed alike, the wall's texture kept, for a shadow", () => {
    expect(filled((plate) => 16 + 0.55 * (plate - 16)).verdict(CENTRE)).toBe(FOLLOWS);
  });

  it('does not take a texture of its own at the same brightness (grey clothes) for one', () => {
    expect(filled((_plate, n) => 16 + 0.55 * (120 - 16) + texture(n, 2)).verdict(CENTRE)).not.toBe(FOLLOWS);
  });

  it('takes a soft shadow\'s edge, dimmed by a different ratio in each cell, for a shadow', () => {
    // 0.45 to 0.89 of the light across the block's cells: a ramp the plate does not have, which pooled
    // as one set of pixels would outweigh the texture the frame follows inside each cell.
    expect(filled((plate, n) => 16 + (0.45 + 0.055 * Math.floor(n / 10)) * (plate - 16)).verdict(CENTRE)).toBe(FOLLOWS);
  });

  it('tells nothing on a plain wall: the plate has no texture to follow', () => {
    expect(filled((plate) => 0.55 * plate, () => 120).verdict(CENTRE)).not.toBe(FOLLOWS);
    expect(filled((plate, n) => 0.55 * plate + (n % 2), (n) => 120 + (n % 2) * 0.5).verdict(CENTRE)).not.toBe(FOLLOWS);
  });

  it('tells a texture of its own, darker than a plain or a textured wall (hair), from a shadow and from grain', () => {
    const dim = 16 + 0.55 * (120 - 16);
    // Hair before a plain wall (-12..12 levels of its own), and before a textured one, varying more than it.
    expect(filled((_plate, n) => dim + texture(n, 2), () => 120).verdict(CENTRE)).toBe(OWN_TEXTURE);
    expect(filled((_plate, n) => dim + 2 * texture(n, 2)).verdict(CENTRE)).toBe(OWN_TEXTURE);
    // As much as the wall varies: told from a shadow (FOLLOWS) only, not as a texture of its own.
    expect(filled((_plate, n) => dim + texture(n, 2)).verdict(CENTRE)).toBe(UNTOLD);
    // A shadow on the textured wall follows it; on a plain wall under grain of a level or two it tells nothing.
    expect(filled((plate) => 16 + 0.55 * (plate - 16)).verdict(CENTRE)).toBe(FOLLOWS);
    expect(filled((_plate, n) => dim + texture(n, 3) / 6, () => 120).verdict(CENTRE)).toBe(UNTOLD);
  });

  it("tells nothing of a hard shadow's edge on a plain wall: only the cells along it vary", () => {
    // The block's middle column of cells holds the edge: half of each cell's pixels dimmed to 0.55, half
    // to 0.85; the other cells are wholly in the shadow, under a level of grain.
    const edge = filled((_plate, n) => {
      const cell = Math.floor(n / 10);
      const across = cell % 3 === 1 && n % 2 === 0 ? 0.85 : 0.55;
      return 16 + across * (120 - 16) + texture(n, 3) / 12;
    }, () => 120);
    expect(edge.verdict(CENTRE)).toBe(UNTOLD);
  });

  it('judges a cell on its neighbours within reach, and nothing on too few pixels', () => {
    const shadows = filled((plate) => 0.5 * plate);
    // Corner cell (0, 0) reaches cell (1, 1) of the block: ten pixels, too few.
    expect(shadows.verdict(0)).not.toBe(FOLLOWS);
    // Cell (4, 4) reaches only cell (3, 3) of it: too few too; cell (3, 3) reaches four of its cells, 40 pixels.
    expect(shadows.verdict(4 * GRID.width + 4)).not.toBe(FOLLOWS);
    expect(shadows.verdict(3 * GRID.width + 3)).toBe(FOLLOWS);
  });

  it("does not take a thin line (a person's rim, darker than the wall and mixed with it) for a shadow", () => {
    // The same 90 pixels are under shareFrom of a region whose cells hold 100 pixels each.
    expect(filled((plate) => 0.5 * plate, undefined, 100).verdict(CENTRE)).not.toBe(FOLLOWS);
  });

  it('forgets the last frame on clear', () => {
    const shadows = filled((plate) => 0.5 * plate);
    expect(shadows.verdict(CENTRE)).toBe(FOLLOWS);
    shadows.clear();
    expect(shadows.verdict(CENTRE)).not.toBe(FOLLOWS);
  });
});

function correlation(a: number[], b: number[]): number {
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const [meanA, meanB] = [mean(a), mean(b)];
  let products = 0;
  let squaresA = 0;
  let squaresB = 0;
  a.forEach((value, n) => {
    products += (value - meanA) * (b[n]! - meanB);
    squaresA += (value - meanA) ** 2;
    squaresB += (b[n]! - meanB) ** 2;
  });
  return products / Math.sqrt(squaresA * squaresB);
}
