import { cropVariant, variantFor } from './matting-model';

const square = { spec: { width: 256, height: 256 } };
const landscape = { spec: { width: 256, height: 144 } };

describe('variantFor', () => {
  it.each([
    [1280, 720, landscape],
    [1920, 1080, landscape],
    [3840, 1600, landscape],
    [720, 1280, square],
    [1080, 1080, square],
  ])('gives a %ix%i frame the variant closest to its shape', (width, height, expected) => {
    expect(variantFor([square, landscape], width, height)).toBe(expected);
    expect(variantFor([landscape, square], width, height)).toBe(expected);
  });

  it('gives a 4:3 frame, halfway between the two shapes, the smaller and faster variant whichever is listed first', () => {
    expect(variantFor([square, landscape], 640, 480)).toBe(landscape);
    expect(variantFor([landscape, square], 640, 480)).toBe(landscape);
  });

  it('gives every frame the only variant there is', () => {
    expect(variantFor([landscape], 480, 640)).toBe(landscape);
  });
});

describe('cropVariant', () => {
  it('gives crops the variant with the most input pixels, whichever is listed first', () => {
    expect(cropVariant([square, landscape])).toBe(square);
    expect(cropVariant([landscape, square])).toBe(square);
    expect(cropVariant([landscape])).toBe(landscape);
  });
});
