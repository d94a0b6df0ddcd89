import { FrameSampler, lumaOf, yuvMatrixFor, type TensorFormat } from './frame-sampler';

const RGB_01: TensorFormat = { layout: 'nhwc', mean: [0, 0, 0], std: [1, 1, 1] };

// A yuv420p frame from a function of the luma position and one of the chroma position.
function yuv420p(width: number, height: number, y: (x: number, row: number) => number, uv: (x: number, row: number) => [number, number] = () => [128, 128]): Uint8Array {
  const frame = new Uint8Array((width * height * 3) / 2);
  for (let row = 0; row < height; row++) for (let x = 0; x < width; x++) frame[row * width + x] = y(x, row);
  const chromaWidth = width / 2;
  const quarter = (width * height) / 4;
  for (let row = 0; row < height / 2; row++) {
    for (let x = 0; x < chromaWidth; x++) {
      const [u, v] = uv(x, row);
      frame[width * height + row * chromaWidth + x] = u;
      frame[width * height + quarter + row * chromaWidth + x] = v;
    }
  }
  return frame;
}

function sample(frame: Uint8Array, frameSize: [number, number], size: [number, number], format = RGB_01, matrix: 'bt601' | 'bt709' = 'bt601') {
  const sampler = new FrameSampler(frameSize[0], frameSize[1], size[0], size[1], matrix);
  const tensor = new Float32Array(size[0] * size[1] * 3);
  const luma = new Float32Array(size[0] * size[1]);
  sampler.sample(frame, format, tensor, luma);
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

describe('FrameSampler', () => {
  it('reads uniform grey as luma (Y - 16) / 219 with equal R, G and B', () => {
    const { tensor, luma } = sample(yuv420p(8, 4, () => 126), [8, 4], [4, 2]);
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
    const { tensor } = sample(
      yuv420p(8, 4, () => y, () => [u, v]),
      [8, 4],
      [4, 2],
      RGB_01,
      matrix,
    );
    for (let pixel = 0; pixel < 8; pixel++) expectCloseTo(tensor.slice(pixel * 3, pixel * 3 + 3), [...rgb], 2);
  });

  it('clamps colours outside the RGB cube to 0..1', () => {
    // Y=235 with the most red V: R would be well above 1, G and B below 0 are clamped too.
    const { tensor } = sample(yuv420p(2, 2, () => 235, () => [16, 240]), [2, 2], [1, 1]);
    expect(Math.max(...tensor)).toBeLessThanOrEqual(1);
    expect(Math.min(...tensor)).toBeGreaterThanOrEqual(0);
    expect(tensor[0]).toBe(1);
  });

  it('averages the whole area each output pixel covers', () => {
    const halves = yuv420p(8, 4, (x) => (x < 4 ? 16 : 235));
    const { luma, tensor } = sample(halves, [8, 4], [2, 1]);
    expectCloseTo(luma, [0, 1]);
    expectCloseTo(tensor, [0, 0, 0, 1, 1, 1]);
  });

  it('averages rows as well as columns', () => {
    // Rows alternate black and white: every 2x2 cell averages to the middle.
    const stripes = yuv420p(8, 4, (_x, row) => (row % 2 === 0 ? 16 : 234));
    expectCloseTo(sample(stripes, [8, 4], [4, 2]).luma, Array(8).fill(0.5 - 0.5 / 219));
  });

  it('averages the chroma over the same area as the luma', () => {
    // Red on the left half, blue on the right: each half keeps its own colour.
    const frame = yuv420p(
      8,
      4,
      (x) => (x < 4 ? 81 : 41),
      (x) => (x < 2 ? [90, 240] : [240, 110]),
    );
    const { tensor } = sample(frame, [8, 4], [2, 1]);
    expectCloseTo(tensor.slice(0, 3), [1, 0, 0], 2);
    expectCloseTo(tensor.slice(3, 6), [0, 0, 1], 2);
  });

  it('repeats source pixels when the model input is larger than the frame', () => {
    const ramp = [16, 89, 162, 235];
    const { luma } = sample(yuv420p(4, 2, (x) => ramp[x]), [4, 2], [8, 4]);
    const row = [0, 0, 1 / 3, 1 / 3, 2 / 3, 2 / 3, 1, 1];
    expectCloseTo(luma, [...row, ...row, ...row, ...row]);
  });

  // Left pixel red, right pixel green.
  const redGreen = yuv420p(4, 2, (x) => (x < 2 ? 81 : 145), (x) => (x < 1 ? [90, 240] : [54, 34]));

  it('places the channels of each pixel together in NHWC', () => {
    expectCloseTo(sample(redGreen, [4, 2], [2, 1], RGB_01).tensor, [1, 0, 0, 0, 1, 0], 2);
  });

  it('places each channel as a whole plane in NCHW', () => {
    // R plane, G plane, B plane, each [left, right].
    expectCloseTo(sample(redGreen, [4, 2], [2, 1], { ...RGB_01, layout: 'nchw' }).tensor, [1, 0, 0, 1, 0, 0], 2);
  });

  it('normalises each channel as (value - mean) / std', () => {
    const grey = (126 - 16) / 219;
    const format: TensorFormat = { layout: 'nhwc', mean: [0.5, 0.25, 0], std: [0.5, 2, 0.25] };
    const { tensor } = sample(yuv420p(2, 2, () => 126), [2, 2], [1, 1], format);
    expectCloseTo(tensor, [(grey - 0.5) / 0.5, (grey - 0.25) / 2, grey / 0.25]);
  });

  it('leaves the luma unnormalised', () => {
    const format: TensorFormat = { layout: 'nchw', mean: [0.5, 0.5, 0.5], std: [0.1, 0.1, 0.1] };
    expectCloseTo(sample(yuv420p(2, 2, () => 235), [2, 2], [1, 1], format).luma, [1]);
  });
});
