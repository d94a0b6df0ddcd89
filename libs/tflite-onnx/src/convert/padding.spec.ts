import { Padding } from '../tflite/tflite-model';
import { explicitPads } from './padding';

describe('explicitPads', () => {
  it.each<[string, Padding, [number, number], [number, number], [number, number], [number, number], number[]]>([
    ['VALID never pads', Padding.VALID, [5, 7], [3, 3], [2, 2], [1, 1], [0, 0, 0, 0]],
    ['SAME 3x3 stride 1 pads one on every side', Padding.SAME, [5, 7], [3, 3], [1, 1], [1, 1], [1, 1, 1, 1]],
    ['SAME 3x3 stride 2 on 256 puts the single pad at the bottom/right', Padding.SAME, [256, 256], [3, 3], [2, 2], [1, 1], [0, 0, 1, 1]],
    ['SAME 2x2 stride 1 puts its pad at the bottom/right', Padding.SAME, [5, 7], [2, 2], [1, 1], [1, 1], [0, 0, 1, 1]],
    ['SAME 5x5 stride 2 on 6x8 splits 1 before, 2 after', Padding.SAME, [6, 8], [5, 5], [2, 2], [1, 1], [1, 1, 2, 2]],
    ['SAME with dilation 2 pads for the 5x5 effective kernel', Padding.SAME, [5, 7], [3, 3], [1, 1], [2, 2], [2, 2, 2, 2]],
    ['SAME 2x2 stride 2 on even sizes needs no padding', Padding.SAME, [4, 4], [2, 2], [2, 2], [1, 1], [0, 0, 0, 0]],
  ])('%s', (_, padding, inputHW, kernelHW, strideHW, dilationHW, expected) => {
    expect(explicitPads(padding, { inputHW, kernelHW, strideHW, dilationHW })).toEqual(expected);
  });
});
