/** @jest-environment ./test/onnx-test-environment.cjs */
import { convertTfliteModelToOnnx } from '../convert-tflite-model';
import { BuiltinOperator } from '../../tflite/builtin-operator';
import { expectClose, randomArray } from '../../testing/nd-array';
import { ReferencePadding, resizeBilinear, transposeConvBias } from '../../testing/nhwc-reference';
import { runOnnx } from '../../testing/run-onnx';
import { TfliteGraphBuilder, int32Bytes } from '../../testing/tflite-graph-builder';

describe('RESIZE_BILINEAR', () => {
  it.each<[string, [number, number], boolean, boolean]>([
    ['2x up with half_pixel_centers (what the selfie models use)', [10, 14], false, true],
    ['up with align_corners', [9, 13], true, false],
    ['2x up with neither flag', [10, 14], false, false],
    ['down to 3x4 with half_pixel_centers', [3, 4], false, true],
    ['down to 3x4 with align_corners', [3, 4], true, false],
    ['up by a non-integer factor with neither flag', [8, 10], false, false],
  ])('matches the TFLite reference: %s', async (_, size, alignCorners, halfPixelCenters) => {
    const input = randomArray([1, 5, 7, 3], 1);
    const expected = resizeBilinear(input, size, alignCorners, halfPixelCenters);
    const graph = new TfliteGraphBuilder();
    const x = graph.input('x', input.shape);
    const y = graph.output('y', expected.shape);
    graph.builtin(BuiltinOperator.RESIZE_BILINEAR, [x, graph.int32Constant('size', size)], [y], { kind: 'resizeBilinear', alignCorners, halfPixelCenters });

    const outputs = await runOnnx(convertTfliteModelToOnnx(graph.build()), { x: input });

    expectClose(outputs.y, expected);
  });
});

describe('custom Convolution2DTransposeBias', () => {
  // TfLitePadding: 1 = SAME, 2 = VALID.
  it.each<[string, number[], number[], ReferencePadding, [number, number]]>([
    ['2x2, stride 2, SAME (the selfie models\' upsampling head)', [1, 5, 7, 16], [1, 2, 2, 16], 'SAME', [2, 2]],
    ['3x3, stride 2, SAME (one pixel trimmed at each side)', [1, 5, 7, 3], [4, 3, 3, 3], 'SAME', [2, 2]],
    ['4x4, stride 2, SAME (three pixels trimmed, one at the start)', [1, 5, 7, 3], [2, 4, 4, 3], 'SAME', [2, 2]],
    ['3x3, stride 2, VALID', [1, 5, 7, 3], [4, 3, 3, 3], 'VALID', [2, 2]],
    ['3x2, stride 1x2, SAME', [1, 5, 7, 3], [2, 3, 2, 3], 'SAME', [1, 2]],
  ])('matches MediaPipe\'s kernel: %s', async (_, inputShape, filterShape, padding, strideHW) => {
    const [input, filter, bias] = [randomArray(inputShape, 1), randomArray(filterShape, 2), randomArray([filterShape[0]], 3)];
    const expected = transposeConvBias(input, filter, bias, padding, strideHW);
    const graph = new TfliteGraphBuilder();
    const x = graph.input('x', inputShape);
    const y = graph.output('y', expected.shape);
    const options = int32Bytes([padding === 'SAME' ? 1 : 2, strideHW[1], strideHW[0]]);
    graph.custom('Convolution2DTransposeBias', [x, graph.constant('filter', filter), graph.constant('bias', bias)], [y], options);

    const outputs = await runOnnx(convertTfliteModelToOnnx(graph.build()), { x: input });

    expectClose(outputs.y, expected);
  });
});
