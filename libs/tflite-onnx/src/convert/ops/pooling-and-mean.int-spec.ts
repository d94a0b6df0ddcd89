/** @jest-environment ./test/onnx-test-environment.cjs */
import { convertTfliteModelToOnnx } from '../convert-tflite-model';
import { BuiltinOperator } from '../../tflite/builtin-operator';
import { ActivationFunction, Padding } from '../../tflite/tflite-model';
import { expectClose, randomArray } from '../../testing/nd-array';
import { ReferencePadding, activations, averagePool2d, map, mean } from '../../testing/nhwc-reference';
import { runOnnx } from '../../testing/run-onnx';
import { TfliteGraphBuilder } from '../../testing/tflite-graph-builder';

describe('AVERAGE_POOL_2D', () => {
  it.each<[string, number[], [number, number], ReferencePadding, [number, number]]>([
    ['3x3, SAME, stride 1 (edge windows average fewer pixels)', [1, 5, 7, 3], [3, 3], 'SAME', [1, 1]],
    ['3x3, SAME, stride 2 on even sizes (padding only at the bottom/right)', [1, 6, 8, 3], [3, 3], 'SAME', [2, 2]],
    ['2x2, VALID, stride 2', [1, 5, 7, 3], [2, 2], 'VALID', [2, 2]],
    ['a VALID window over the whole image (GlobalAveragePool)', [1, 5, 7, 3], [5, 7], 'VALID', [5, 7]],
  ])('matches the NHWC reference: %s', async (_, shape, kernelHW, padding, strideHW) => {
    const input = randomArray(shape, 1);
    const expected = averagePool2d(input, kernelHW, { padding, strideHW });
    const graph = new TfliteGraphBuilder();
    const x = graph.input('x', shape);
    const y = graph.output('y', expected.shape);
    graph.builtin(BuiltinOperator.AVERAGE_POOL_2D, [x], [y], {
      kind: 'pool2d',
      padding: padding === 'SAME' ? Padding.SAME : Padding.VALID,
      filterH: kernelHW[0],
      filterW: kernelHW[1],
      strideH: strideHW[0],
      strideW: strideHW[1],
      activation: ActivationFunction.NONE,
    });

    const outputs = await runOnnx(convertTfliteModelToOnnx(graph.build()), { x: input });

    expectClose(outputs.y, expected);
  });

  it('applies a fused RELU', async () => {
    const input = randomArray([1, 5, 7, 3], 1);
    const graph = new TfliteGraphBuilder();
    const x = graph.input('x', input.shape);
    const y = graph.output('y', [1, 5, 7, 3]);
    graph.builtin(BuiltinOperator.AVERAGE_POOL_2D, [x], [y], {
      kind: 'pool2d',
      padding: Padding.SAME,
      filterH: 2,
      filterW: 3,
      strideH: 1,
      strideW: 1,
      activation: ActivationFunction.RELU,
    });

    const outputs = await runOnnx(convertTfliteModelToOnnx(graph.build()), { x: input });

    expectClose(outputs.y, map(averagePool2d(input, [2, 3], { padding: 'SAME', strideHW: [1, 1] }), activations.relu));
  });
});

describe('MEAN', () => {
  it.each<[string, number[], number[], boolean]>([
    ['over height and width, keeping dims (GlobalAveragePool)', [1, 5, 7, 3], [1, 2], true],
    ['over channels, keeping dims', [1, 5, 7, 3], [3], true],
    ['over width, keeping dims', [1, 5, 7, 3], [2], true],
    ['over height and width, dropping them', [1, 5, 7, 3], [1, 2], false],
    ['over the last axis given as -1, dropping it', [1, 5, 7, 3], [-1], false],
    ['of a rank-3 tensor', [2, 5, 3], [1], false],
  ])('matches the reference: %s', async (_, shape, axes, keepDims) => {
    const input = randomArray(shape, 1);
    const expected = mean(input, axes, keepDims);
    const graph = new TfliteGraphBuilder();
    const x = graph.input('x', shape);
    const y = graph.output('y', expected.shape);
    graph.builtin(BuiltinOperator.MEAN, [x, graph.int32Constant('axes', axes)], [y], { kind: 'reducer', keepDims });

    const outputs = await runOnnx(convertTfliteModelToOnnx(graph.build()), { x: input });

    expectClose(outputs.y, expected);
  });
});
