import { lumaOf, ModelInput, writeLumaChange, yuvMatrixFor, type TensorFormat } from './model-input';

const RGB_01: TensorFormat = { layout: 'nhwc', mean: [0, 0, 0], std: [1, 1, 1] };

// A planar yuv444p frame (what the decoder writes at the model's size) from a function of the
// position giving each pixel's Y, U and V.
function yuv444p(width: number, height: number, yuv: (x: number, row: number) => readonly [number, number, number]): Uint8Array {
  const pixels = width * height;
  const frame = new Uint8Array(pixels * 3);
  for (let row = 0; row < height; row++) {
    for (let x = 0; x < width; x++) {
      const [y, u, v] = yuv(x, row);
      frame[row * width + x] = y;
      frame[pixels + row * width + x] = u;
      frame[2 * pixels + row * width + x] = v;
    }
  }
  return frame;
}

function write(frame: Uint8Array, size: [number, number], format = RGB_01, matrix: 'bt601' | 'bt709' = 'bt601') {
  const input = new ModelInput(size[0], size[1], matrix);
  const tensor = new Float32Array(size[0] * size[1] * 3);
  const luma = new Float32Array(size[0] * size[1]);
  input.write(frame, format, tensor, luma, 'full');
  return { tensor: Array.from(tensor), luma: Array.from(luma) };
}

function expectCloseTo(actual: number[], expected: number[], digits = 5): void {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((value, i) => expect(value).toBeCloseTo(expected[i], digits));
}

describe('lumaOf', () => {
  it('maps limited-range black and white to 0 and 1', () => {
    expect(lumaOf(16)).toBe(0);
    expect(lumaOf(235)).toBe(1);
  });
});

describe('yuvMatrixFor', () => {
  it('follows the colour space tag whatever the height', () => {
    expect(yuvMatrixFor('bt709', 480)).toBe('bt709');
    expect(yuvMatrixFor('smpte170m', 1080)).toBe('bt601');
    expect(yuvMatrixFor('bt470bg', 1080)).toBe('bt601');
  });

  it('reads untagged video as BT.709 from 720 lines up and BT.601 below, as players do', () => {
    expect(yuvMatrixFor(null, 720)).toBe('bt709');
    expect(yuvMatrixFor(null, 719)).toBe('bt601');
  });

  it('falls back to the height rule for a colour space it has no matrix for', () => {
    expect(yuvMatrixFor('bt2020nc', 2160)).toBe('bt709');
    expect(yuvMatrixFor('bt2020nc', 480)).toBe('bt601');
  });
});

describe('ModelInput', () => {
  it('reads uniform grey as luma (Y - 16) / 219 with equal R, G and B', () => {
    const { tensor, luma } = write(yuv444p(4, 2, () => [126, 128, 128]), [4, 2]);
    const grey = (126 - 16) / 219;
    expectCloseTo(luma, Array(8).fill(grey));
    expectCloseTo(tensor, Array(24).fill(grey));
  });

  it.each([
    ['bt601', 'red', [81, 90, 240], [1, 0, 0]],
    ['bt601', 'green', [145, 54, 34], [0, 1, 0]],
    ['bt601', 'blue', [41, 240, 110], [0, 0, 1]],
    ['bt709', 'red', [63, 102, 240], [1, 0, 0]],
    ['bt709', 'green', [173, 42, 26], [0, 1, 0]],
    ['bt709', 'blue', [32, 240, 118], [0, 0, 1]],
  ] as const)('reads %s limited-range pure %s (YUV %j) as that primary', (matrix, _name, [y, u, v], rgb) => {
    const { tensor } = write(yuv444p(4, 2, () => [y, u, v]), [4, 2], RGB_01, matrix);
    for (let pixel = 0; pixel < 8; pixel++) expectCloseTo(tensor.slice(pixel * 3, pixel * 3 + 3), [...rgb], 2);
  });

  it('clamps colours outside the RGB cube to 0..1', () => {
    // Y=235 with the most red V: R would be well above 1, G and B below 0 are clamped too.
    const { tensor } = write(yuv444p(1, 1, () => [235, 16, 240]), [1, 1]);
    expect(Math.max(...tensor)).toBeLessThanOrEqual(1);
    expect(Math.min(...tensor)).toBeGreaterThanOrEqual(0);
    expect(tensor[0]).toBe(1);
  });

  // Left pixel red, right pixel green.
  const redGreen = yuv444p(2, 1, (x) => (x < 1 ? [81, 90, 240] : [145, 54, 34]));

  it('places the channels of each pixel together in NHWC', () => {
    expectCloseTo(write(redGreen, [2, 1], RGB_01).tensor, [1, 0, 0, 0, 1, 0], 2);
  });

  it('places each channel as a whole plane in NCHW', () => {
    // R plane, G plane, B plane, each [left, right].
    expectCloseTo(write(redGreen, [2, 1], { ...RGB_01, layout: 'nchw' }).tensor, [1, 0, 0, 1, 0, 0], 2);
  });

  it('normalises each channel as (value - mean) / std', () => {
    const grey = (126 - 16) / 219;
    const format: TensorFormat = { layout: 'nhwc', mean: [0.5, 0.25, 0], std: [0.5, 2, 0.25] };
    const { tensor } = write(yuv444p(1, 1, () => [126, 128, 128]), [1, 1], format);
    expectCloseTo(tensor, [(grey - 0.5) / 0.5, (grey - 0.25) / 2, grey / 0.25]);
  });

  it('leaves the luma unnormalised', () => {
    const format: TensorFormat = { layout: 'nchw', mean: [0.5, 0.5, 0.5], std: [0.1, 0.1, 0.1] };
    expectCloseTo(write(yuv444p(1, 1, () => [235, 128, 128]), [1, 1], format).luma, [1]);
  });

  it('reads half-resolution chroma (a crop) as the same picture with each chroma sample doubled, odd sides included', () => {
    const [width, height] = [5, 3];
    const yuv = (x: number, row: number) => [16 + 30 * x + row, 60 + 40 * (x >> 1) + (row >> 1), 200 - 50 * (x >> 1) - 7 * (row >> 1)] as const;
    const half = new Uint8Array(width * height + 2 * 3 * 2);
    for (let row = 0; row < height; row++) for (let x = 0; x < width; x++) half[row * width + x] = yuv(x, row)[0];
    for (let row = 0; row < 2; row++) {
      for (let x = 0; x < 3; x++) {
        half[width * height + row * 3 + x] = yuv(2 * x, 2 * row)[1];
        half[width * height + 6 + row * 3 + x] = yuv(2 * x, 2 * row)[2];
      }
    }
    const input = new ModelInput(width, height, 'bt601');
    const fromHalf = new Float32Array(width * height * 3);
    input.write(half, { ...RGB_01, layout: 'nchw' }, fromHalf, null, 'half');
    expect(Array.from(fromHalf)).toEqual(write(yuv444p(width, height, yuv), [width, height], { ...RGB_01, layout: 'nchw' }).tensor);
  });
});

describe('writeLumaChange', () => {
  it("writes the luma as write() does and returns its mean absolute difference from the last frame's", () => {
    const frame = yuv444p(4, 1, (x) => [16 + 73 * x, 128, 128]);
    const luma = new Float32Array(4);
    const previous = Float32Array.from([0.5, 0.5, 0.5, 0.5]);
    const change = writeLumaChange(frame, luma, previous);
    expectCloseTo(Array.from(luma), [0, 1 / 3, 2 / 3, 1]);
    expect(change).toBeCloseTo((0.5 + 1 / 6 + 1 / 6 + 0.5) / 4, 6);
  });
});
