import { NCHW_TO_NHWC, NHWC_TO_NCHW, nchwAxis, permuteShape, transposeData } from './layout';

describe('layout helpers', () => {
  it('moves NHWC data to NCHW and back', () => {
    const shape = [1, 2, 3, 2];
    const nhwc = Float32Array.from({ length: 12 }, (_, i) => i);

    const nchw = transposeData(nhwc, shape, NHWC_TO_NCHW);

    // Channel 0 of every pixel first, then channel 1.
    expect(Array.from(nchw)).toEqual([0, 2, 4, 6, 8, 10, 1, 3, 5, 7, 9, 11]);
    expect(permuteShape(shape, NHWC_TO_NCHW)).toEqual([1, 2, 2, 3]);
    expect(Array.from(transposeData(nchw, [1, 2, 2, 3], NCHW_TO_NHWC))).toEqual(Array.from(nhwc));
  });

  it('maps NHWC axes, negative ones included, to their NCHW position', () => {
    expect([0, 1, 2, 3, -1, -3].map(nchwAxis)).toEqual([0, 2, 3, 1, 1, 2]);
  });
});
