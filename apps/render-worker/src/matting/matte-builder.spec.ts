import { DEFAULT_MATTE, MatteBuilder } from './matte-builder';

const [MASK_W, MASK_H] = [4, 4];
const [WIDTH, HEIGHT] = [16, 12];

// A yuv420p frame of one luma value; only its Y plane is read.
const flatFrame = (y: number) => new Uint8Array((WIDTH * HEIGHT * 3) / 2).fill(y);

function build(refine: boolean, mask: Float32Array, frame = flatFrame(126), luma = new Float32Array(MASK_W * MASK_H).fill((126 - 16) / 219)): number[] {
  const builder = new MatteBuilder(MASK_W, MASK_H, WIDTH, HEIGHT, { ...DEFAULT_MATTE, refine });
  const alpha = new Uint8ClampedArray(WIDTH * HEIGHT);
  builder.build(mask, luma, frame, alpha);
  return Array.from(alpha);
}

const constantMask = (value: number) => new Float32Array(MASK_W * MASK_H).fill(value);

describe('MatteBuilder', () => {
  it.each([
    [0.2, 0],
    [0.3, 0],
    [0.4, 64],
    [0.5, 128],
    [0.7, 255],
    [0.8, 255],
  ])('without refinement turns a mask of %f into alpha %i (a ramp from transparentBelow to opaqueFrom)', (value, alpha) => {
    expect(build(false, constantMask(value))).toEqual(Array(WIDTH * HEIGHT).fill(alpha));
  });

  it('writes the alpha at full resolution and nothing past it', () => {
    const builder = new MatteBuilder(MASK_W, MASK_H, WIDTH, HEIGHT, { ...DEFAULT_MATTE, refine: false });
    const alpha = new Uint8ClampedArray(WIDTH * HEIGHT + 4).fill(7);
    builder.build(constantMask(0.8), constantMask(0.5), flatFrame(126), alpha);
    expect(Array.from(alpha.subarray(0, WIDTH * HEIGHT))).toEqual(Array(WIDTH * HEIGHT).fill(255));
    expect(Array.from(alpha.subarray(WIDTH * HEIGHT))).toEqual([7, 7, 7, 7]);
  });

  it('resamples the low-resolution mask smoothly to full size', () => {
    // Left mask column transparent, the rest opaque: one row of alpha rises 0 .. 255 without a jump.
    const mask = Float32Array.from({ length: MASK_W * MASK_H }, (_, i) => (i % MASK_W === 0 ? 0.3 : 0.7));
    const row = build(false, mask).slice(0, WIDTH);
    expect(row.slice(0, 2)).toEqual([0, 0]);
    expect(row.slice(8)).toEqual(Array(8).fill(255));
    for (let x = 1; x < WIDTH; x++) expect(row[x]).toBeGreaterThanOrEqual(row[x - 1]);
    expect(row.filter((value) => value > 0 && value < 255).length).toBeGreaterThan(2);
  });

  it.each([0.2, 0.4, 0.5, 0.8])('with refinement on a flat picture gives a constant mask of %f the same alpha as without', (value) => {
    const plain = build(false, constantMask(value));
    build(true, constantMask(value)).forEach((alpha, i) => expect(Math.abs(alpha - plain[i])).toBeLessThanOrEqual(1));
  });

  it("with refinement puts the matte's edge on the picture's edge", () => {
    // Full-size picture: black left half, white right half; the mask only roughly agrees.
    const frame = new Uint8Array((WIDTH * HEIGHT * 3) / 2).fill(128);
    for (let i = 0; i < WIDTH * HEIGHT; i++) frame[i] = i % WIDTH < WIDTH / 2 ? 16 : 235;
    const luma = Float32Array.from({ length: MASK_W * MASK_H }, (_, i) => (i % MASK_W < MASK_W / 2 ? 0 : 1));
    const mask = Float32Array.from({ length: MASK_W * MASK_H }, (_, i) => [0.2, 0.4, 0.6, 0.8][i % MASK_W]);
    const refined = build(true, mask, frame, luma).slice(0, WIDTH);
    const plain = build(false, mask, frame, luma).slice(0, WIDTH);
    const jump = (row: number[]) => row[WIDTH / 2] - row[WIDTH / 2 - 1];
    expect(jump(refined)).toBeGreaterThan(2 * jump(plain));
    expect(refined.slice(0, WIDTH / 2).every((alpha) => alpha < 128)).toBe(true);
    expect(refined.slice(WIDTH / 2).every((alpha) => alpha > 128)).toBe(true);
  });
});
