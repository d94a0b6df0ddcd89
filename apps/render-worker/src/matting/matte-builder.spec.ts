import { BilinearMap } from './bilinear';
import { BilinearResampler } from './testing/bilinear-resampler';
import { DEFAULT_MATTE, MatteBuilder } from './matte-builder';

const [MASK_W, MASK_H] = [4, 4];
const [WIDTH, HEIGHT] = [16, 12];

const flatLuma = (y: number) => new Uint8Array(WIDTH * HEIGHT).fill(y);
const constantMask = (value: number) => new Float32Array(MASK_W * MASK_H).fill(value);
// The picture at the mask's size, as 0..1 luma: mid-grey unless a test needs an edge.
const MID_GREY = new Float32Array(MASK_W * MASK_H).fill((126 - 16) / 219);

function builder(refine: boolean): MatteBuilder {
  return new MatteBuilder(MASK_W, MASK_H, WIDTH, HEIGHT, { ...DEFAULT_MATTE, refine });
}

function plain(mask: Float32Array, luma = MID_GREY): number[] {
  return Array.from(builder(false).build(mask, luma, undefined));
}

function refined(mask: Float32Array, fullLuma = flatLuma(126), luma = MID_GREY): number[] {
  return Array.from(builder(true).build(mask, luma, fullLuma));
}

// A model-size alpha brought to the frame's size as the encoder does it (bilinear).
function upsampled(alpha: number[]): number[] {
  const out: number[] = [];
  new BilinearResampler(new BilinearMap(MASK_W, MASK_H, WIDTH, HEIGHT), 1).run([Float32Array.from(alpha)], (_y, [row]) => out.push(...Array.from(row, Math.round)));
  return out;
}

describe('MatteBuilder', () => {
  it.each([
    [0.2, 0],
    [0.3, 0],
    [0.4, 64],
    [0.5, 128],
    [0.7, 255],
    [0.8, 255],
  ])('without refinement turns a mask of %f into alpha %i (a ramp from transparentBelow to opaqueFrom)', (value, alpha) => {
    expect(plain(constantMask(value))).toEqual(Array(MASK_W * MASK_H).fill(alpha));
  });

  it("without refinement makes the alpha at the mask's size, value for value, for the encoder to scale up", () => {
    const { width, height } = builder(false);
    expect([width, height]).toEqual([MASK_W, MASK_H]);
    const mask = Float32Array.from({ length: MASK_W * MASK_H }, (_, i) => (i % 2 === 0 ? 0.2 : 0.8));
    expect(plain(mask)).toEqual(Array.from(mask, (value) => (value < 0.5 ? 0 : 255)));
  });

  it("with refinement makes the alpha at the frame's size", () => {
    const { width, height } = builder(true);
    expect([width, height]).toEqual([WIDTH, HEIGHT]);
    expect(refined(constantMask(0.8))).toHaveLength(WIDTH * HEIGHT);
  });

  it('returns a fresh alpha on every build, leaving the one before it as it was', () => {
    const matte = builder(false);
    const first = matte.build(constantMask(0.8), MID_GREY, undefined);
    const second = matte.build(constantMask(0.2), MID_GREY, undefined);
    expect(second).not.toBe(first);
    expect(Array.from(first)).toEqual(Array(MASK_W * MASK_H).fill(255));
  });

  it('refuses to refine without the full-size luma', () => {
    expect(() => builder(true).build(constantMask(0.8), MID_GREY, undefined)).toThrow('Edge refinement needs the full-size luma');
  });

  it.each([0.2, 0.4, 0.5, 0.8])('with refinement on a flat picture gives a constant mask of %f the alpha it gets without, scaled up', (value) => {
    const scaled = upsampled(plain(constantMask(value)));
    refined(constantMask(value)).forEach((alpha, i) => expect(Math.abs(alpha - scaled[i])).toBeLessThanOrEqual(1));
  });

  it("with refinement puts the matte's edge on the picture's edge", () => {
    // Full-size picture: black left half, white right half; the mask only roughly agrees.
    const fullLuma = Uint8Array.from({ length: WIDTH * HEIGHT }, (_, i) => (i % WIDTH < WIDTH / 2 ? 16 : 235));
    const luma = Float32Array.from({ length: MASK_W * MASK_H }, (_, i) => (i % MASK_W < MASK_W / 2 ? 0 : 1));
    const mask = Float32Array.from({ length: MASK_W * MASK_H }, (_, i) => [0.2, 0.4, 0.6, 0.8][i % MASK_W]);
    const followed = refined(mask, fullLuma, luma).slice(0, WIDTH);
    const scaled = upsampled(plain(mask, luma)).slice(0, WIDTH);
    const jump = (row: number[]) => row[WIDTH / 2] - row[WIDTH / 2 - 1];
    expect(jump(followed)).toBeGreaterThan(2 * jump(scaled));
    expect(followed.slice(0, WIDTH / 2).every((alpha) => alpha < 128)).toBe(true);
    expect(followed.slice(WIDTH / 2).every((alpha) => alpha > 128)).toBe(true);
  });
});
