import { int32Bytes } from '../../testing/tflite-graph-builder';
import { readTransposeConvParams } from './transpose-conv-bias';

describe('readTransposeConvParams', () => {
  it('reads padding, stride_width and stride_height from the raw struct', () => {
    expect(readTransposeConvParams(int32Bytes([1, 2, 3]))).toEqual({ same: true, strideW: 2, strideH: 3 });
    expect(readTransposeConvParams(int32Bytes([2, 1, 1]))).toEqual({ same: false, strideW: 1, strideH: 1 });
  });

  it('ignores fields newer TFLite versions append to the struct', () => {
    expect(readTransposeConvParams(int32Bytes([1, 2, 2, 0, 0]))).toEqual({ same: true, strideW: 2, strideH: 2 });
  });

  it('rejects missing or short options and an unknown padding', () => {
    expect(readTransposeConvParams(undefined)).toBeUndefined();
    expect(readTransposeConvParams(int32Bytes([1, 2]))).toBeUndefined();
    expect(readTransposeConvParams(int32Bytes([0, 2, 2]))).toBeUndefined();
  });
});
