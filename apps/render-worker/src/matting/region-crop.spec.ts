import { cropBytes, pasteRegion, RegionSampler } from './region-crop';

const GRID = { width: 16, height: 8 };

// A planar yuv420p picture whose planes are f(x, y) at each plane's own resolution.
function yuv420(width: number, height: number, y: (x: number, y: number) => number, u: number, v: number): Uint8Array {
  const picture = new Uint8Array((width * height * 3) / 2);
  for (let row = 0; row < height; row++) for (let x = 0; x < width; x++) picture[row * width + x] = y(x, row);
  picture.fill(u, width * height, (width * height * 5) / 4);
  picture.fill(v, (width * height * 5) / 4);
  return picture;
}

const PIXELS = GRID.width * GRID.height;
const luma = (crop: Uint8Array) => Array.from(crop.subarray(0, PIXELS));
// A crop's chroma plane (0: U, 1: V), at half the grid's resolution.
const chroma = (crop: Uint8Array, index: number) => Array.from(crop.subarray(PIXELS + (index * PIXELS) / 4, PIXELS + ((index + 1) * PIXELS) / 4));

describe('RegionSampler', () => {
  it('gives back a grid-sized source unchanged for the whole frame, chroma included', () => {
    const source = yuv420(GRID.width, GRID.height, (x, y) => 16 + x * 8 + y, 90, 200);
    const out = new Uint8Array(cropBytes(GRID));
    new RegionSampler(GRID, GRID).sample(source, { x: 0, y: 0, width: GRID.width, height: GRID.height }, out);
    expect(luma(out)).toEqual(Array.from(source.subarray(0, PIXELS)));
    expect(chroma(out, 0)).toEqual(Array(PIXELS / 4).fill(90));
    expect(chroma(out, 1)).toEqual(Array(PIXELS / 4).fill(200));
  });

  it('enlarges a region of a larger source: each output pixel reads the source where the region maps it', () => {
    // Source twice the grid's size; luma = 2 * source column.
    const source = yuv420(GRID.width * 2, GRID.height * 2, (x) => 2 * x, 128, 128);
    const out = new Uint8Array(cropBytes(GRID));
    // The right half of the grid's top half, enlarged twice.
    new RegionSampler({ width: GRID.width * 2, height: GRID.height * 2 }, GRID).sample(source, { x: 8, y: 0, width: 8, height: 4 }, out);
    const row = luma(out).slice(0, GRID.width);
    // Crop column c centres on grid column 8 + (c + 0.5) / 2, which is source pixel 16 + c.
    row.forEach((value, c) => expect(value).toBe(2 * (16 + c)));
  });

  it('averages over the footprint when the source is larger than the crop, so fine detail is not aliased', () => {
    // One-pixel stripes, four source pixels per grid pixel: every output is their mean.
    const source = yuv420(GRID.width * 4, GRID.height * 4, (x) => (x % 2 === 0 ? 40 : 200), 128, 128);
    const out = new Uint8Array(cropBytes(GRID));
    new RegionSampler({ width: GRID.width * 4, height: GRID.height * 4 }, GRID).sample(source, { x: 0, y: 0, width: GRID.width, height: GRID.height }, out);
    luma(out).forEach((value) => expect(Math.abs(value - 120)).toBeLessThanOrEqual(1));
  });

  it('samples each region as a new sampler would, whatever regions it sampled before', () => {
    const size = { width: GRID.width * 4, height: GRID.height * 4 };
    const source = yuv420(size.width, size.height, (x, y) => (x * 7 + y * 13) % 220, 100, 150);
    const regions = [
      { x: 0, y: 0, width: GRID.width, height: GRID.height },
      { x: 5.5, y: 1.25, width: 4, height: 2 },
      { x: 2, y: 3, width: 12, height: 5 },
    ];
    const reused = new RegionSampler(size, GRID);
    for (const region of regions) {
      const again = new Uint8Array(cropBytes(GRID));
      const fresh = new Uint8Array(cropBytes(GRID));
      reused.sample(source, region, again);
      new RegionSampler(size, GRID).sample(source, region, fresh);
      expect(again).toEqual(fresh);
    }
  });
});

describe('pasteRegion', () => {
  it("puts the crop's mask in place and leaves the rest as it was", () => {
    const crop = new Float32Array(GRID.width * GRID.height).fill(1);
    const into = new Float32Array(GRID.width * GRID.height).fill(0.25);
    pasteRegion(crop, GRID, { x: 4, y: 2, width: 8, height: 4 }, GRID, into);
    for (let y = 0; y < GRID.height; y++) {
      for (let x = 0; x < GRID.width; x++) {
        const inside = x >= 4 && x < 12 && y >= 2 && y < 6;
        expect(into[y * GRID.width + x]).toBe(inside ? 1 : 0.25);
      }
    }
  });

  it('keeps the larger value where the region overlaps regions pasted before it, and replaces elsewhere', () => {
    const first = { x: 0, y: 0, width: 8, height: 4 };
    const into = pasteRegion(new Float32Array(GRID.width * GRID.height).fill(0.75), GRID, first, GRID, new Float32Array(GRID.width * GRID.height).fill(0.5));
    pasteRegion(new Float32Array(GRID.width * GRID.height).fill(0.25), GRID, { x: 4, y: 2, width: 8, height: 4 }, GRID, into, [first]);
    expect(into[3 * GRID.width + 5]).toBe(0.75);
    expect(into[3 * GRID.width + 9]).toBe(0.25);
    expect(into[1 * GRID.width + 5]).toBe(0.75);
    expect(into[7 * GRID.width + 9]).toBe(0.5);
  });

  it('is the inverse of sampling: a plane cropped and pasted back is the plane again inside the region', () => {
    // A smooth ramp, so bilinear resampling both ways is exact.
    const source = yuv420(GRID.width, GRID.height, (x) => 16 + 10 * x, 128, 128);
    const region = { x: 4, y: 2, width: 8, height: 4 };
    const out = new Uint8Array(cropBytes(GRID));
    new RegionSampler(GRID, GRID).sample(source, region, out);
    const cropMask = Float32Array.from(luma(out));
    const back = pasteRegion(cropMask, GRID, region, GRID, new Float32Array(GRID.width * GRID.height));
    for (let y = 2; y < 6; y++) for (let x = 5; x < 11; x++) expect(Math.abs(back[y * GRID.width + x] - source[y * GRID.width + x])).toBeLessThanOrEqual(1);
  });

  it("samples and pastes a crop of another size than the grid (the crop model's): the round trip still gives the plane back", () => {
    const source = yuv420(GRID.width, GRID.height, (x) => 16 + 10 * x, 128, 128);
    const region = { x: 4, y: 2, width: 8, height: 4 };
    const crop = { width: 6, height: 6 };
    const out = new Uint8Array(cropBytes(crop));
    new RegionSampler(GRID, GRID, crop).sample(source, region, out);
    const cropMask = Float32Array.from(out.subarray(0, crop.width * crop.height));
    const back = pasteRegion(cropMask, crop, region, GRID, new Float32Array(GRID.width * GRID.height));
    for (let y = 2; y < 6; y++) for (let x = 5; x < 11; x++) expect(Math.abs(back[y * GRID.width + x] - source[y * GRID.width + x])).toBeLessThanOrEqual(1);
  });
});
